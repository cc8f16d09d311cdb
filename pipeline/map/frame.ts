/**
 * The map's frame: the sample of applications UMAP was fitted on, their unit vectors and their
 * coordinates. Every other application is placed from its nearest frame points, so a kept frame
 * keeps the whole map: under a pinned encoder (pipeline/encoder/pin.ts) a nightly build places new
 * applications on the map users already know instead of refitting it, and an unchanged
 * application keeps its exact coordinates.
 *
 *   map/frame.json  dims, the frame's applications and coordinates (in the ±FRAME box)
 *   map/frame.f32   their unit vectors, row-major float32 in the same order
 */
import { mapOutputs } from "./outputs.ts"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { readVectorFile, writeVectorFile } from "../../core/index/vector-file.ts"

export const FRAME_JSON = mapOutputs.frame.path
export const FRAME_VECTORS = mapOutputs.frameVectors.path

export interface Frame {
  readonly dims: number
  readonly apps: ReadonlyArray<string>
  /** Coordinates, three per application, in the order of `apps`. */
  readonly coords: ReadonlyArray<readonly [number, number, number]>
  readonly vectors: Float32Array
}

export const writeFrame = async (versionDir: string, frame: Frame) => {
  await fs.mkdir(path.join(versionDir, "map"), { recursive: true })
  await fs.writeFile(
    path.join(versionDir, FRAME_JSON),
    JSON.stringify({ format: "patent-map-frame/1", dims: frame.dims, apps: frame.apps, coords: frame.coords })
  )
  await writeVectorFile(path.join(versionDir, FRAME_VECTORS), frame.vectors)
}

/** The frame of `versionDir`, or undefined when it has none (built before frames were kept) or its width differs. */
export const readFrame = async (versionDir: string, dims: number): Promise<Frame | undefined> => {
  const meta = await fs
    .readFile(path.join(versionDir, FRAME_JSON), "utf8")
    .then((t) => JSON.parse(t) as { dims: number; apps: string[]; coords: [number, number, number][] })
    .catch(() => undefined)
  if (!meta || meta.dims !== dims || meta.apps.length !== meta.coords.length) return undefined
  const vectors = await readVectorFile(path.join(versionDir, FRAME_VECTORS), dims, meta.apps.length)
  return vectors ? { dims, apps: meta.apps, coords: meta.coords, vectors } : undefined
}
