/**
 * The nightly index (issue 17): extending the earlier version's graph against rebuilding it, on
 * synthetic clustered unit vectors (256 dims, as the LSA half of the encoder gives) at each size.
 *
 * Night one is a full build (quantization chosen on a sample, the graph built over every vector,
 * its recall measured: what the embed stage does without an earlier version). Night two takes one
 * week of the US collection's change scaled to the size: 0.14% of the rows are new (about 14,000
 * publications a week against 10.5M applications), spread through the numbering so that later
 * rows shift, and 0.02% are removed or changed. It is built both ways from the same rows:
 * extended (pipeline/embed/nightly-index.ts) and rebuilt (INDEX_EXTEND_LIMIT=0), each with its
 * recall@10 against exact search measured the same way.
 *
 *   node --import tsx bench/index-extension.ts [--sizes 100000,1000000] [--no-write]
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { writeLabels } from "../core/index/labels.ts"
import { indexForBuild, type IndexOutcome } from "../pipeline/embed/nightly-index.ts"
import { silentProgress } from "../pipeline/stages/progress.ts"
import { clusteredUnitVectors } from "../test/support/clustered-vectors.ts"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100000,1000000" },
    "no-write": { type: "boolean", default: false }
  }
})
const DIMS = 256
const NEW_SHARE = 0.0014
const GONE_SHARE = 0.0002

const clustered = (n: number, seed: number) => clusteredUnitVectors(n, DIMS, { seed, topics: 2000 })

const timed = async <A>(f: () => Promise<A>) => {
  const t0 = performance.now()
  const value = await f()
  return { value, seconds: (performance.now() - t0) / 1000 }
}

const publish = async (dir: string, outcome: IndexOutcome) => {
  await fs.mkdir(path.join(dir, "index"), { recursive: true })
  outcome.built.raw.save(path.join(dir, "index", "hnsw.usearch"))
  if (outcome.labels) writeLabels(path.join(dir, "index"), outcome.labels)
  await fs.writeFile(path.join(dir, "index", "index.json"), JSON.stringify({ ...outcome.built.info, ...outcome.choice, removedSinceBuild: outcome.removedSinceBuild }))
}

interface Row {
  readonly n: number
  readonly added: number
  readonly removed: number
  readonly fullSeconds: number
  readonly rebuildSeconds: number
  readonly extendSeconds: number
  readonly rebuildRecall: number
  readonly extendRecall: number
  readonly note: string
}

const rows: Array<Row> = []
const root = await fs.mkdtemp(path.join(os.tmpdir(), "bench-index-extension-"))
try {
  for (const n of values.sizes!.split(",").map(Number).filter((x) => x > 0)) {
    const earlier = clustered(n, 11)
    const full = await timed(() => indexForBuild(earlier, DIMS, new Int32Array(n).fill(-1), undefined, silentProgress))
    const earlierDir = path.join(root, `n${n}-night1`)
    await publish(earlierDir, full.value)

    // Night two: every 1/GONE_SHARE-th earlier row leaves; new rows go in every 1/NEW_SHARE rows.
    const added = Math.round(n * NEW_SHARE)
    const fresh = clustered(added, 12)
    const goneEvery = Math.round(1 / GONE_SHARE)
    const newEvery = Math.floor(n / added)
    const unit = new Float32Array((n + added) * DIMS)
    const origin: Array<number> = []
    let placed = 0
    for (let r = 0; r < n; r++) {
      if (r % newEvery === 0 && placed < added) {
        unit.set(fresh.subarray(placed * DIMS, (placed + 1) * DIMS), origin.length * DIMS)
        origin.push(-1)
        placed++
      }
      if (r % goneEvery === goneEvery - 1) continue
      unit.set(earlier.subarray(r * DIMS, (r + 1) * DIMS), origin.length * DIMS)
      origin.push(r)
    }
    const rowsNow = origin.length
    const next = unit.subarray(0, rowsNow * DIMS)
    const originNow = Int32Array.from(origin)
    const rebuild = await timed(() => indexForBuild(next, DIMS, originNow, earlierDir, silentProgress, 0))
    const extend = await timed(() => indexForBuild(next, DIMS, originNow, earlierDir, silentProgress))
    rows.push({
      n,
      added: placed,
      removed: n - (rowsNow - placed),
      fullSeconds: full.seconds,
      rebuildSeconds: rebuild.seconds,
      extendSeconds: extend.seconds,
      rebuildRecall: rebuild.value.indexRecallAt10,
      extendRecall: extend.value.indexRecallAt10,
      note: extend.value.note
    })
    process.stdout.write(`${JSON.stringify(rows.at(-1))}\n`)
  }
} finally {
  await fs.rm(root, { recursive: true, force: true })
}

printTable("Nightly index: the earlier graph extended against rebuilt (256-dim clustered unit vectors; seconds include the recall measurement)", rows, [
  ["vectors", (r) => r.n.toLocaleString("en-US")],
  ["added", (r) => String(r.added)],
  ["removed", (r) => String(r.removed)],
  ["full build s", (r) => r.fullSeconds.toFixed(1)],
  ["rebuilt s", (r) => r.rebuildSeconds.toFixed(1)],
  ["extended s", (r) => r.extendSeconds.toFixed(1)],
  ["extended / rebuilt", (r) => (r.extendSeconds / r.rebuildSeconds).toFixed(3)],
  ["recall@10 rebuilt", (r) => r.rebuildRecall.toFixed(3)],
  ["recall@10 extended", (r) => r.extendRecall.toFixed(3)]
])
if (!values["no-write"]) await writeResult("index-extension", { machine: { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg() }, rows })
