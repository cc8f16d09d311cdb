/**
 * Which HNSW label each stored row carries. A version built from scratch labels row r with r, and
 * writes no file. A nightly build that extends the earlier version's graph instead of rebuilding it
 * (pipeline/embed/build-index.ts `extendIndex`) keeps every unchanged application's label, whatever
 * its row has become, and gives new applications labels above the earlier ones: an application
 * added in the middle of the numbering shifts the rows after it, not the labels. Its labels are
 * written to index/labels.u32, one little-endian uint32 per row of vectors.f32, in row order.
 */
import * as fs from "node:fs"
import * as path from "node:path"

export const LABEL_FILE = "labels.u32"

/** Label → row, for the labels a graph answers with. */
export interface RowsOfLabels {
  readonly rowOf: (label: number) => number
}

/** Labels of rows 0…n−1; undefined when the index has no label file (a label is then its row). */
export const readLabels = (indexDir: string, rows: number): Uint32Array | undefined => {
  const file = path.join(indexDir, LABEL_FILE)
  let bytes: Buffer
  try {
    bytes = fs.readFileSync(file)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  }
  if (bytes.byteLength !== rows * 4) throw new Error(`${file} holds ${bytes.byteLength / 4} labels for ${rows} rows`)
  // The file's bytes as they are (little-endian, as every platform Node runs the pipeline on; vectors.f32 relies on it too).
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
}

export const writeLabels = (indexDir: string, labels: Uint32Array) =>
  fs.writeFileSync(path.join(indexDir, LABEL_FILE), new Uint8Array(labels.buffer, labels.byteOffset, labels.byteLength))

/** The inverse of `labels` (rows whose label the graph no longer holds map to −1). */
export const rowsOfLabels = (labels: Uint32Array): RowsOfLabels => {
  let top = 0
  for (const l of labels) if (l > top) top = l
  const rows = new Int32Array(top + 1).fill(-1)
  for (let r = 0; r < labels.length; r++) rows[labels[r]!] = r
  return { rowOf: (label) => (label < rows.length ? rows[label]! : -1) }
}
