/**
 * Semantic-similarity benchmark of the text encoders (issue 18), from real corpus text: CPC
 * scheme titles of main groups that the subword encoder never trains on (pipeline/encoder/
 * held-out.ts). The CPC hierarchy is the judge of relatedness:
 *
 *   graded pairs    grade 3: a subgroup and its parent (or a sibling under the same parent);
 *                   2: two entries of one main group; 1: of one subclass, different main groups;
 *                   0: of different sections. Pearson and Spearman of cosine against grade.
 *   ranking         a subgroup, its parent and an entry of another main group of the same
 *                   subclass (hard) or of another section (easy): share of triplets where the
 *                   parent scores higher.
 *
 * Methods side by side: the subword encoder (fastText-style), the LSA encoder, both
 * trained here on the version's tables exactly as the encoder stage trains them, their ensemble (the
 * default encoder) at its default subword weight and others, and two lexical
 * baselines (Jaccard overlap of stems; TF-IDF over character trigrams, idf from all CPC titles).
 *
 *   node --import tsx bench/encoder-similarity.ts [--artifacts DIR] [--pairs 4000] [--fasttext '{json options}']
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { loadTextEncoder, type PatentTextEncoder } from "../core/encoder/encoder.ts"
import { DEFAULT_SUBWORD_WEIGHT, joinVectors } from "../core/encoder/ensemble-encoder.ts"
import { tokenizePatentText } from "../core/text/tokenize.ts"
import { sqlString } from "../core/artifacts/files.ts"
import { isHeldOutCpcSymbol, mainGroupOf } from "../pipeline/encoder/held-out.ts"
import { trainEncoder } from "../pipeline/encoder/stage.ts"
import type { Progress } from "../pipeline/stages/progress.ts"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: {
    artifacts: { type: "string", default: ".tmp/test-artifacts/current" },
    pairs: { type: "string", default: "4000" },
    fasttext: { type: "string", default: "{}" },
    "no-write": { type: "boolean", default: false }
  }
})
const PAIRS = Number(values.pairs)

interface CpcEntry {
  readonly symbol: string
  readonly level: number
  readonly title: string
  readonly parent: string | null
  readonly section: string
}

const readScheme = async (versionDir: string): Promise<CpcEntry[]> => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    const r = await conn.runAndReadAll(
      `SELECT symbol, level, title, parent, section FROM read_parquet(${sqlString(path.join(versionDir, "tables", "cpc_scheme.parquet"))}) ORDER BY symbol`
    )
    return (r.getRowsJS() as [string, number, string, string | null, string][]).map(([symbol, level, title, parent, section]) => ({
      symbol,
      level: Number(level),
      title,
      parent,
      section
    }))
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** A small deterministic generator (mulberry32), so every run draws the same pairs. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

interface Pair {
  readonly a: string
  readonly b: string
  readonly grade: number
}
interface Triplet {
  readonly anchor: string
  readonly positive: string
  readonly negative: string
  readonly hard: boolean
}

const buildTasks = (scheme: ReadonlyArray<CpcEntry>) => {
  const rnd = random(18)
  const pick = <T>(xs: ReadonlyArray<T>) => xs[Math.floor(rnd() * xs.length)]
  const bySymbol = new Map(scheme.map((e) => [e.symbol, e]))
  const heldOut = scheme.filter((e) => isHeldOutCpcSymbol(e.symbol) && e.parent && e.level >= 5)
  const heldGroups = new Map<string, CpcEntry[]>()
  for (const e of scheme.filter((x) => isHeldOutCpcSymbol(x.symbol))) {
    const g = mainGroupOf(e.symbol)!
    heldGroups.set(g, [...(heldGroups.get(g) ?? []), e])
  }
  const children = new Map<string, CpcEntry[]>()
  for (const e of heldOut) children.set(e.parent!, [...(children.get(e.parent!) ?? []), e])
  const groupsBySubclass = new Map<string, string[]>()
  for (const e of scheme) {
    const g = mainGroupOf(e.symbol)
    if (!g || e.level !== 4) continue
    const sub = e.symbol.slice(0, 4)
    groupsBySubclass.set(sub, [...(groupsBySubclass.get(sub) ?? []), e.symbol])
  }
  const titled = scheme.filter((e) => e.level >= 4)
  const bySection = new Map<string, CpcEntry[]>()
  for (const e of titled) bySection.set(e.section, [...(bySection.get(e.section) ?? []), e])
  const otherSection = (section: string) => {
    for (;;) {
      const e = pick(titled)
      if (e.section !== section) return e
    }
  }
  const otherGroupSameSubclass = (e: CpcEntry) => {
    const groups = (groupsBySubclass.get(e.symbol.slice(0, 4)) ?? []).filter((g) => mainGroupOf(g) !== mainGroupOf(e.symbol))
    if (groups.length === 0) return undefined
    const group = bySymbol.get(pick(groups))!
    return group
  }

  const perGrade = Math.floor(PAIRS / 4)
  const graded: Pair[][] = [[], [], [], []]
  const triplets: Triplet[] = []
  for (let tries = 0; tries < PAIRS * 50 && graded.some((g) => g.length < perGrade); tries++) {
    const e = pick(heldOut)
    const parent = bySymbol.get(e.parent!)
    if (!parent) continue
    const siblings = (children.get(e.parent!) ?? []).filter((s) => s.symbol !== e.symbol)
    const group = (heldGroups.get(mainGroupOf(e.symbol)!) ?? []).filter(
      (x) => x.symbol !== e.symbol && x.symbol !== e.parent && x.parent !== e.parent && x.symbol !== e.parent
    )
    const cousin = otherGroupSameSubclass(e)
    const far = otherSection(e.section)
    if (graded[3].length < perGrade) graded[3].push(rnd() < 0.5 || siblings.length === 0 ? { a: e.title, b: parent.title, grade: 3 } : { a: e.title, b: pick(siblings).title, grade: 3 })
    if (graded[2].length < perGrade && group.length > 0) graded[2].push({ a: e.title, b: pick(group).title, grade: 2 })
    if (graded[1].length < perGrade && cousin) graded[1].push({ a: e.title, b: cousin.title, grade: 1 })
    if (graded[0].length < perGrade) graded[0].push({ a: e.title, b: far.title, grade: 0 })
    if (triplets.length < PAIRS) {
      if (cousin) triplets.push({ anchor: e.title, positive: parent.title, negative: cousin.title, hard: true })
      triplets.push({ anchor: e.title, positive: parent.title, negative: far.title, hard: false })
    }
  }
  return { pairs: graded.flat(), triplets, heldOutEntries: heldOut.length, heldOutGroups: heldGroups.size }
}

// ---------------------------------------------------------------------------------------------
// Scores
// ---------------------------------------------------------------------------------------------

const ranks = (xs: ReadonlyArray<number>) => {
  const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0])
  const r = new Array<number>(xs.length)
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++
    for (let k = i; k <= j; k++) r[order[k][1]] = (i + j) / 2 + 1
    i = j + 1
  }
  return r
}
const pearson = (x: ReadonlyArray<number>, y: ReadonlyArray<number>) => {
  const n = x.length
  const mx = x.reduce((s, v) => s + v, 0) / n
  const my = y.reduce((s, v) => s + v, 0) / n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my)
    sxx += (x[i] - mx) ** 2
    syy += (y[i] - my) ** 2
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0
}
const spearman = (x: ReadonlyArray<number>, y: ReadonlyArray<number>) => pearson(ranks(x), ranks(y))

type Similarity = (pairs: ReadonlyArray<readonly [string, string]>) => Promise<number[]>

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}

const encoderSimilarity =
  (encoder: PatentTextEncoder): Similarity =>
  async (pairs) => {
    const texts = [...new Set(pairs.flat())]
    const vectors = await encoder.encode(texts)
    const at = new Map(texts.map((t, i) => [t, vectors[i]]))
    return pairs.map(([a, b]) => dot(at.get(a)!, at.get(b)!))
  }

const jaccardOfStems: Similarity = async (pairs) =>
  pairs.map(([a, b]) => {
    const x = new Set(tokenizePatentText(a).map((t) => t.stem))
    const y = new Set(tokenizePatentText(b).map((t) => t.stem))
    let both = 0
    for (const s of x) if (y.has(s)) both++
    const union = x.size + y.size - both
    return union === 0 ? 0 : both / union
  })

const trigramsOf = (text: string) => {
  const out = new Map<string, number>()
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    const w = ` ${word} `
    for (let i = 0; i + 3 <= w.length; i++) out.set(w.slice(i, i + 3), (out.get(w.slice(i, i + 3)) ?? 0) + 1)
  }
  return out
}

const trigramTfIdf = (corpus: ReadonlyArray<string>): Similarity => {
  const df = new Map<string, number>()
  for (const t of corpus) for (const g of trigramsOf(t).keys()) df.set(g, (df.get(g) ?? 0) + 1)
  const vector = (text: string) => {
    const v = new Map<string, number>()
    let norm = 0
    for (const [g, tf] of trigramsOf(text)) {
      const w = (1 + Math.log(tf)) * (Math.log((1 + corpus.length) / (1 + (df.get(g) ?? 0))) + 1)
      v.set(g, w)
      norm += w * w
    }
    norm = Math.sqrt(norm) || 1
    for (const [g, w] of v) v.set(g, w / norm)
    return v
  }
  return async (pairs) =>
    pairs.map(([a, b]) => {
      const x = vector(a)
      const y = vector(b)
      let s = 0
      for (const [g, w] of x) s += w * (y.get(g) ?? 0)
      return s
    })
}

// ---------------------------------------------------------------------------------------------

const quiet: Progress = { stage: () => {}, tick: () => {}, info: () => {}, done: () => {} }

/** Trains an encoder of one kind on the version's tables in a scratch folder and opens it. */
const trainedEncoder = async (versionDir: string, kind: "fasttext" | "lsa") => {
  const work = path.resolve(".tmp/bench-encoder", kind)
  await fs.rm(work, { recursive: true, force: true })
  await fs.mkdir(work, { recursive: true })
  await fs.symlink(path.join(versionDir, "tables"), path.join(work, "tables"))
  const started = Date.now()
  const result = await trainEncoder(kind, work, quiet, JSON.parse(values.fasttext))
  const seconds = (Date.now() - started) / 1000
  return { encoder: await loadTextEncoder(path.join(work, "encoder")), seconds, notes: result.notes ?? [] }
}

/** Cosine of the ensemble vectors of two trained encoders at a subword weight `w`. */
const ensembleSimilarity =
  (lsa: PatentTextEncoder, subword: PatentTextEncoder, w: number): Similarity =>
  async (pairs) => {
    const texts = pairs.flatMap(([a, b]) => [a, b])
    const [l, s] = await Promise.all([lsa.encode(texts), subword.encode(texts)])
    const scales = [Math.sqrt(1 - w), Math.sqrt(w)]
    const joined = texts.map((_, i) => joinVectors([l[i], s[i]], scales))
    return pairs.map((_, i) => {
      const a = joined[2 * i]
      const b = joined[2 * i + 1]
      let dot = 0
      for (let k = 0; k < a.length; k++) dot += a[k] * b[k]
      return dot
    })
  }

const main = async () => {
  const versionDir = await fs.realpath(values.artifacts)
  const scheme = await readScheme(versionDir)
  const tasks = buildTasks(scheme)
  const fasttext = await trainedEncoder(versionDir, "fasttext")
  const lsa = await trainedEncoder(versionDir, "lsa")
  const methods: Array<[string, Similarity, number | null]> = [
    ["subword encoder (fastText, ENCODER=fasttext)", encoderSimilarity(fasttext.encoder), fasttext.seconds],
    ["LSA encoder", encoderSimilarity(lsa.encoder), lsa.seconds],
    // The ensemble (ENCODER=ensemble) joins exactly these two models' vectors.
    ...[...new Set([0.3, DEFAULT_SUBWORD_WEIGHT, 0.5, 0.7])].sort((a, b) => a - b).map(
      (w) => [`ensemble, subword weight ${w} (ENCODER=ensemble${w === DEFAULT_SUBWORD_WEIGHT ? ", the default weight" : ""})`, ensembleSimilarity(lsa.encoder, fasttext.encoder, w), null] as [string, Similarity, number | null]
    ),
    ["Jaccard of stems", jaccardOfStems, null],
    ["TF-IDF of character trigrams", trigramTfIdf(scheme.map((e) => e.title)), null]
  ]
  const grades = tasks.pairs.map((p) => p.grade)
  const rows = []
  for (const [name, similarity, trainSeconds] of methods) {
    const cos = await similarity(tasks.pairs.map((p) => [p.a, p.b] as const))
    const pos = await similarity(tasks.triplets.map((t) => [t.anchor, t.positive] as const))
    const neg = await similarity(tasks.triplets.map((t) => [t.anchor, t.negative] as const))
    const accuracy = (hard: boolean) => {
      const idx = tasks.triplets.map((t, i) => [t, i] as const).filter(([t]) => t.hard === hard)
      return idx.filter(([, i]) => pos[i] > neg[i]).length / idx.length
    }
    rows.push({
      method: name,
      pearson: pearson(cos, grades),
      spearman: spearman(cos, grades),
      rankingHard: accuracy(true),
      rankingEasy: accuracy(false),
      zeroCosineShare: cos.filter((c) => c === 0).length / cos.length,
      trainSeconds
    })
  }
  await fasttext.encoder.close()
  await lsa.encoder.close()
  const f3 = (x: number) => x.toFixed(3)
  printTable(
    `Encoder similarity on held-out CPC titles (${tasks.pairs.length} graded pairs, ${tasks.triplets.length} triplets; ${tasks.heldOutGroups} main groups never trained on)`,
    rows,
    [
      ["method", (r) => r.method],
      ["Pearson", (r) => f3(r.pearson)],
      ["Spearman", (r) => f3(r.spearman)],
      ["rank: parent > same-subclass", (r) => f3(r.rankingHard)],
      ["rank: parent > other section", (r) => f3(r.rankingEasy)],
      ["cos = 0", (r) => f3(r.zeroCosineShare)],
      ["train s", (r) => (r.trainSeconds === null ? "" : r.trainSeconds.toFixed(1))]
    ]
  )
  process.stdout.write(`${fasttext.notes.join("\n")}\n`)
  if (!values["no-write"]) {
    await writeResult("encoder-similarity", {
      machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
      artifacts: versionDir,
      pairs: tasks.pairs.length,
      triplets: tasks.triplets.length,
      heldOutMainGroups: tasks.heldOutGroups,
      fastTextOptions: JSON.parse(values.fasttext),
      fastTextTraining: fasttext.notes,
      methods: rows
    })
  }
}

await main()
