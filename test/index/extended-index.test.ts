/**
 * A nightly build extends the earlier version's graph instead of rebuilding it
 * (pipeline/embed/nightly-index.ts): rows that left are removed, new rows added under labels of
 * their own, and rows shifted by an application added in the middle of the numbering keep their
 * label. Served through viewIndex, the extended graph answers with this build's rows, like exact
 * search, night after night; too much change builds a fresh graph.
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BatchMatches, exactSearch, type Matches, viewIndex } from "../../core/index/hnsw.ts"
import { LABEL_FILE, writeLabels } from "../../core/index/labels.ts"
import { VECTOR_FILE, writeVectorFile } from "../../core/index/vector-file.ts"
import { buildIndex } from "../../pipeline/embed/build-index.ts"
import { indexForBuild, type IndexOutcome } from "../../pipeline/embed/nightly-index.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { clusteredUnitVectors } from "../support/clustered-vectors.ts"

const DIMS = 64

const clustered = (n: number, seed: number) => clusteredUnitVectors(n, DIMS, { seed, topics: 60 })

/** Rows of a build, each either an earlier row (taken over) or a new vector. */
type Row = { readonly earlier: number } | { readonly fresh: Float32Array }

const assemble = (earlierRows: Float32Array, rows: ReadonlyArray<Row>) => {
  const unit = new Float32Array(rows.length * DIMS)
  const origin = new Int32Array(rows.length)
  rows.forEach((r, i) => {
    if ("earlier" in r) {
      unit.set(earlierRows.subarray(r.earlier * DIMS, (r.earlier + 1) * DIMS), i * DIMS)
      origin[i] = r.earlier
    } else {
      unit.set(r.fresh, i * DIMS)
      origin[i] = -1
    }
  })
  return { unit, origin }
}

let root: string
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "extended-index-"))
})
afterAll(() => fs.rm(root, { recursive: true, force: true }))

/** Writes a version's index folder as the embed stage does. */
const publish = async (name: string, unit: Float32Array, outcome: Pick<IndexOutcome, "built" | "labels" | "removedSinceBuild">) => {
  const dir = path.join(root, name)
  await fs.mkdir(path.join(dir, "index"), { recursive: true })
  outcome.built.raw.save(path.join(dir, "index", "hnsw.usearch"))
  if (outcome.labels) writeLabels(path.join(dir, "index"), outcome.labels)
  await writeVectorFile(path.join(dir, "index", VECTOR_FILE), unit)
  await fs.writeFile(path.join(dir, "index", "index.json"), JSON.stringify({ ...outcome.built.info, metric: "cos", removedSinceBuild: outcome.removedSinceBuild }))
  return dir
}

const served = (dir: string, unit: Float32Array) => {
  const index = viewIndex(path.join(dir, "index", "hnsw.usearch"), DIMS, "b1")
  expect(index.size()).toBe(unit.length / DIMS)
  return index
}

/** recall@10 of the served index against exact search over the build's own rows. */
const recall = (dir: string, unit: Float32Array) => {
  const index = served(dir, unit)
  const n = unit.length / DIMS
  let hit = 0
  let total = 0
  for (let q = 0; q < n; q += 37) {
    const query = unit.slice(q * DIMS, (q + 1) * DIMS)
    const exact = new Set(Array.from(exactSearch(unit, query, DIMS, 10).keys, Number))
    const found = index.search(query, 10) as Matches
    for (const k of found.keys) hit += exact.has(Number(k)) ? 1 : 0
    total += exact.size
  }
  return hit / total
}

describe("extending the earlier version's graph", () => {
  it("removes rows that left, adds new ones, and answers with this build's rows, night after night", async () => {
    const first = clustered(3000, 5)
    const firstDir = await publish("first", first, { built: buildIndex(first, DIMS, "b1"), labels: undefined, removedSinceBuild: 0 })

    // Night two: rows 100-199 deleted, 150 new rows between 99 and 200 (later rows shift), 150 at the end.
    const fresh = clustered(300, 6)
    const newRow = (i: number): Row => ({ fresh: fresh.slice(i * DIMS, (i + 1) * DIMS) })
    const rows: Array<Row> = [
      ...Array.from({ length: 100 }, (_, i) => ({ earlier: i })),
      ...Array.from({ length: 150 }, (_, i) => newRow(i)),
      ...Array.from({ length: 2800 }, (_, i) => ({ earlier: 200 + i })),
      ...Array.from({ length: 150 }, (_, i) => newRow(150 + i))
    ]
    const second = assemble(first, rows)
    const extended = await indexForBuild(second.unit, DIMS, second.origin, firstDir, silentProgress)
    expect(extended.note).toMatch(/graph of first extended: 300 added, 100 removed \(100 since its last full build\)/)
    expect(extended.labels).toBeDefined()
    // Taken-over rows keep their label; new rows get labels above every earlier one.
    expect(extended.labels![100 + 150]).toBe(200)
    expect(Math.min(...Array.from(extended.labels!.subarray(100, 250)))).toBe(3000)
    const secondDir = await publish("second", second.unit, extended)
    expect(await fs.stat(path.join(secondDir, "index", LABEL_FILE)).then((s) => s.size)).toBe(3200 * 4)
    expect(recall(secondDir, second.unit)).toBeGreaterThanOrEqual(0.95)
    // New rows find themselves, under their new labels, as often as an approximate index does.
    const index = served(secondDir, second.unit)
    const newRows = [...Array.from({ length: 150 }, (_, i) => 100 + i), ...Array.from({ length: 150 }, (_, i) => 3050 + i)]
    const foundSelf = newRows.filter((r) => Number((index.search(second.unit.slice(r * DIMS, (r + 1) * DIMS), 1) as Matches).keys[0]) === r)
    expect(foundSelf.length / newRows.length).toBeGreaterThanOrEqual(0.95)
    // A batch (one graph call over all cores) answers each query as its own search does, in rows.
    const batchRows = [0, 120, 260, 3100, 3190]
    const batch = new Float32Array(batchRows.length * DIMS)
    batchRows.forEach((r, j) => batch.set(second.unit.subarray(r * DIMS, (r + 1) * DIMS), j * DIMS))
    const answers = index.search(batch, 10) as BatchMatches
    batchRows.forEach((r, j) => expect(answers.get(j)).toEqual(index.search(second.unit.slice(r * DIMS, (r + 1) * DIMS), 10)))

    // Night three extends night two's extended graph: its labels, not its rows, name the graph's nodes.
    const third = assemble(second.unit, [...Array.from({ length: 3100 }, (_, i) => ({ earlier: i + 100 })), newRow(0)])
    const again = await indexForBuild(third.unit, DIMS, third.origin, secondDir, silentProgress)
    expect(again.note).toMatch(/1 added, 100 removed \(200 since its last full build\)/)
    const thirdDir = await publish("third", third.unit, again)
    expect(recall(thirdDir, third.unit)).toBeGreaterThanOrEqual(0.95)
  })

  it("builds a fresh graph when the change is too large to extend", async () => {
    const first = clustered(1000, 7)
    const firstDir = await publish("small", first, { built: buildIndex(first, DIMS, "b1"), labels: undefined, removedSinceBuild: 0 })
    const fresh = clustered(400, 8)
    const rows: Array<Row> = [...Array.from({ length: 1000 }, (_, i) => ({ earlier: i })), ...Array.from({ length: 400 }, (_, i) => ({ fresh: fresh.slice(i * DIMS, (i + 1) * DIMS) }))]
    const next = assemble(first, rows)
    const outcome = await indexForBuild(next.unit, DIMS, next.origin, firstDir, silentProgress)
    expect(outcome.note).toMatch(/graph built over all 1400 vectors \(400 new vectors, over 0.2 of 1400\)/)
    expect(outcome.labels).toBeUndefined()
  })
})
