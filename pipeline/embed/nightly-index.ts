/**
 * The index of a build: the earlier version's graph extended, where that is possible and keeps its
 * recall, or a graph built over every vector.
 *
 * Under a pinned encoder most rows are vectors taken over from the earlier version, yet the graph
 * was rebuilt over all of them, so a nightly embed stage cost what the corpus holds rather than
 * what changed (100,000 applications: 51 s for 233 new texts). Instead the earlier graph is loaded,
 * the rows that left it (deleted applications, changed texts) are removed and the new ones added,
 * each under a label of its own (core/index/labels.ts), since rows shift when an application is
 * added in the middle of the numbering. A graph is built afresh when the earlier one cannot be
 * used (another encoder, no graph), when the removals since its last full build would exceed
 * INDEX_EXTEND_LIMIT of its rows (removed nodes stay in the graph as tombstones) or a night adds
 * more than that, and when the extended graph's measured recall falls below MIN_RECALL.
 */
import { Config } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { IndexInfo } from "../../core/index/hnsw.ts"
import { readLabels } from "../../core/index/labels.ts"
import type { Progress } from "../stages/progress.ts"
import { type EarlierIndex, extendIndex } from "./build-index.ts"
import { type ExactAnswers, exactAnswers, indexWithRecall, K, MIN_RECALL, PROBE_DEPTH, type QuantizationChoice, recallAgainst } from "./quantization.ts"
import { probeAfterNight, readProbe } from "./recall-probe.ts"

/**
 * Share of the rows whose removal (since the last full build) or addition makes a fresh graph the
 * better choice (INDEX_EXTEND_LIMIT; a night adds about 0.1% of the US collection).
 */
export const EXTEND_LIMIT = 0.2
export const extendLimit = Config.number("INDEX_EXTEND_LIMIT").pipe(
  Config.validate({ message: "INDEX_EXTEND_LIMIT must be a share of the rows, 0 or more", validation: (x) => Number.isFinite(x) && x >= 0 }),
  Config.withDefault(EXTEND_LIMIT)
)

interface RecordedIndex extends IndexInfo, Partial<Omit<QuantizationChoice, "quantization">> {
  /** Labels removed since the graph was last built over every vector (absent: built so). */
  readonly removedSinceBuild?: number
  readonly extendedFrom?: string
}

export interface IndexOutcome {
  readonly built: ReturnType<typeof extendIndex>
  readonly choice: QuantizationChoice
  readonly indexRecallAt10: number
  /** Written to index/labels.u32 when the graph was extended (a fresh graph labels each row by itself). */
  readonly labels: Uint32Array | undefined
  readonly removedSinceBuild: number
  readonly extendedFrom: string | undefined
  /** The exact answers the recall was measured against, keyed by graph label (index/recall-probe.json). */
  readonly probe: ExactAnswers
  readonly note: string
}

/** Rows of this build: `origin[r]` is the earlier row whose vector row r took over, or −1 for a vector encoded now. */
export const indexForBuild = async (
  unitRows: Float32Array,
  dims: number,
  origin: Int32Array,
  earlierDir: string | undefined,
  progress: Progress,
  limit = EXTEND_LIMIT
): Promise<IndexOutcome> => {
  const n = unitRows.length / dims
  const fresh = (why: string): IndexOutcome => {
    const { built, choice, indexRecallAt10, probe } = indexWithRecall(unitRows, dims, progress)
    return { built, choice, indexRecallAt10, labels: undefined, removedSinceBuild: 0, extendedFrom: undefined, probe, note: `graph built over all ${n} vectors (${why})` }
  }
  const earlier = earlierDir ? await earlierIndex(earlierDir) : undefined
  if (!earlier) return fresh(earlierDir ? "the earlier version has no graph to extend" : "no earlier version")
  const rows = earlier.info.count!
  const takenOver = new Uint8Array(rows)
  for (let r = 0; r < n; r++) if (origin[r]! >= 0) takenOver[origin[r]!] = 1
  if (!origin.some((o) => o >= 0)) return fresh("no vector taken over")
  const labelOf = (earlierRow: number) => earlier.labels?.[earlierRow] ?? earlierRow
  let next = 0
  for (let r = 0; r < rows; r++) next = Math.max(next, labelOf(r) + 1)
  const removed: Array<number> = []
  for (let r = 0; r < rows; r++) if (!takenOver[r]) removed.push(labelOf(r))
  const labels = new Uint32Array(n)
  const added: Array<number> = []
  for (let r = 0; r < n; r++) {
    if (origin[r]! >= 0) labels[r] = labelOf(origin[r]!)
    else {
      labels[r] = next++
      added.push(r)
    }
  }
  const removedSinceBuild = (earlier.info.removedSinceBuild ?? 0) + removed.length
  if (removedSinceBuild > limit * n) return fresh(`${removedSinceBuild} rows removed since the last full build, over ${limit} of ${n}`)
  if (added.length > limit * n) return fresh(`${added.length} new vectors, over ${limit} of ${n}`)
  const built = extendIndex(earlier, unitRows, labels, removed, added)
  // The earlier graph's exact answers brought up to date, rather than an exact search over every row.
  const earlierProbe = await readProbe(path.join(earlierDir!, "index"), dims)
  const night = earlierProbe ? probeAfterNight(earlierProbe, unitRows, dims, labels, new Set(removed), added, K) : undefined
  const probe = night?.answers ?? relabelled(exactAnswers(unitRows, dims, undefined, PROBE_DEPTH), labels)
  const recall = recallAgainst(built.served, probe, dims, K, (row) => labels[row]!)
  const how = night ? `the earlier probe's exact answers updated${night.searchedAgain ? `, ${night.searchedAgain} queries searched again` : ""}` : "exact search over every row"
  progress.info(`recall@10 vs exact of the extended index over all ${n} vectors, ${earlier.info.quantization} re-scored: ${recall.toFixed(3)} (${how})`)
  if (recall < MIN_RECALL) return fresh(`the extended graph's recall@10 ${recall.toFixed(3)} fell below ${MIN_RECALL}`)
  const version = path.basename(earlierDir!)
  const choice: QuantizationChoice = {
    quantization: earlier.info.quantization as QuantizationChoice["quantization"],
    recallAt10: earlier.info.recallAt10 ?? {},
    sampleSize: earlier.info.sampleSize ?? 0,
    reason: `kept with the graph of ${version}${earlier.info.reason ? ` (${earlier.info.reason})` : ""}`
  }
  return {
    built,
    choice,
    indexRecallAt10: recall,
    labels,
    removedSinceBuild,
    extendedFrom: version,
    probe,
    note: `graph of ${version} extended: ${added.length} added, ${removed.length} removed (${removedSinceBuild} since its last full build)`
  }
}

/** Exact answers keyed by row, keyed by those rows' labels instead. */
const relabelled = (answers: ExactAnswers, labels: Uint32Array): ExactAnswers => ({ ...answers, keys: answers.keys.map((row) => (row >= 0 ? labels[row]! : -1)) })

/** The earlier version's graph when it can be extended: b1 or vector quantization recorded, its row count known. */
const earlierIndex = async (versionDir: string): Promise<(EarlierIndex & { readonly info: RecordedIndex }) | undefined> => {
  const dir = path.join(versionDir, "index")
  const info = await fs
    .readFile(path.join(dir, "index.json"), "utf8")
    .then((t) => JSON.parse(t) as RecordedIndex)
    .catch(() => undefined)
  const file = path.join(dir, "hnsw.usearch")
  if (!info || info.count === undefined || !(await fs.access(file).then(() => true, () => false))) return undefined
  if (info.quantization === "b1" && !info.codes) return undefined
  return { file, info, labels: readLabels(dir, info.count) }
}
