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
 * The held-out main groups are split in two by a second digit of their hash (held-out.ts): the dev
 * half may choose the CPC alignment's shrinkage, the test half is what the table reports.
 *
 * Methods side by side: the subword encoder (fastText-style) with and without its CPC alignment
 * (pipeline/encoder/cpc-alignment.ts; trained once without it, the map applied to its vectors, which
 * is what a model trained with the map serves) at several shrinkages, the LSA encoder, both
 * trained here on the version's tables exactly as the encoder stage trains them, their ensemble (the
 * default encoder) at its default subword weight and others, with and without LSA's weight cut
 * for texts under LSA_FULL_AT_WORDS words (and at other such counts), and two lexical
 * baselines (Jaccard overlap of stems; TF-IDF over character trigrams, idf from all CPC titles).
 *
 *   node --import tsx bench/encoder-similarity.ts [--artifacts DIR] [--pairs 4000] [--fasttext '{json options}']
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { loadTextEncoder, type PatentTextEncoder } from "../core/encoder/encoder.ts"
import { DEFAULT_SUBWORD_WEIGHT, ensembleScales, joinVectors, LSA_FULL_AT_WORDS } from "../core/encoder/ensemble-encoder.ts"
import { countPatentWords, tokenizePatentText } from "../core/text/tokenize.ts"
import { sqlString } from "../core/artifacts/files.ts"
import { applyAlignment, cpcAlignment, defaultAlignmentOptions, schemePairs } from "../pipeline/encoder/cpc-alignment.ts"
import { heldOutSplit, isHeldOutCpcSymbol, mainGroupOf } from "../pipeline/encoder/held-out.ts"
import { resolvedTrainer, trainEncoder } from "../pipeline/encoder/stage.ts"
import { defaultSubwordTrainingOptions, trainerOptions } from "../pipeline/encoder/subword-train.ts"
import type { Progress } from "../pipeline/stages/progress.ts"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: {
    artifacts: { type: "string", default: ".tmp/test-artifacts/current" },
    pairs: { type: "string", default: "8000" },
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
  readonly split: "dev" | "test"
}
interface Triplet {
  readonly anchor: string
  readonly positive: string
  readonly negative: string
  readonly hard: boolean
  readonly split: "dev" | "test"
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
    const split = heldOutSplit(e.symbol)!
    if (graded[3].length < perGrade) graded[3].push(rnd() < 0.5 || siblings.length === 0 ? { a: e.title, b: parent.title, grade: 3, split } : { a: e.title, b: pick(siblings).title, grade: 3, split })
    if (graded[2].length < perGrade && group.length > 0) graded[2].push({ a: e.title, b: pick(group).title, grade: 2, split })
    if (graded[1].length < perGrade && cousin) graded[1].push({ a: e.title, b: cousin.title, grade: 1, split })
    if (graded[0].length < perGrade) graded[0].push({ a: e.title, b: far.title, grade: 0, split })
    if (triplets.length < PAIRS) {
      if (cousin) triplets.push({ anchor: e.title, positive: parent.title, negative: cousin.title, hard: true, split })
      triplets.push({ anchor: e.title, positive: parent.title, negative: far.title, hard: false, split })
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
const trainedEncoder = async (versionDir: string, kind: "fasttext" | "lsa", options: object) => {
  const work = path.resolve(".tmp/bench-encoder", kind)
  await fs.rm(work, { recursive: true, force: true })
  await fs.mkdir(work, { recursive: true })
  // Hard links (a copy across file systems): the stage lists the tables folder's files, and a
  // symbolic link is neither a file nor a folder to that listing.
  await fs.mkdir(path.join(work, "tables"))
  for (const entry of await fs.readdir(path.join(versionDir, "tables"), { withFileTypes: true })) {
    if (!entry.isFile()) continue
    const from = path.join(versionDir, "tables", entry.name)
    const to = path.join(work, "tables", entry.name)
    await fs.link(from, to).catch(() => fs.copyFile(from, to))
  }
  const started = Date.now()
  const result = await trainEncoder(kind, work, quiet, options)
  const seconds = (Date.now() - started) / 1000
  return { encoder: await loadTextEncoder(path.join(work, "encoder")), seconds, notes: result.notes ?? [] }
}

/** Texts → unit vectors. */
type Embedder = (texts: ReadonlyArray<string>) => Promise<Float32Array[]>

const embedderOf = (encoder: PatentTextEncoder): Embedder => (texts) => encoder.encode([...texts])

const unitVector = (v: Float64Array) => {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1
  return Float32Array.from(v, (x) => x / norm)
}

/**
 * The unaligned subword vectors through a CPC alignment map: unit(W·v) is what the aligned graph
 * gives (the map is linear and applied before the text's vector is normalised).
 */
const alignedEmbedder = (unaligned: Embedder, w: Float32Array, d: number): Embedder => async (texts) =>
  (await unaligned(texts)).map((v) => unitVector(applyAlignment(w, v, d)))

/**
 * The ensemble's vectors (ENCODER=ensemble) of two parts at a subword weight `w`, LSA having its
 * whole weight from `fullAt` words (ensembleScales; 0: always).
 */
const ensembleEmbedder = (lsa: Embedder, subword: Embedder, w: number, fullAt: number): Embedder => async (texts) => {
  const [l, s] = await Promise.all([lsa(texts), subword(texts)])
  const parts = [{ weight: 1 - w, fullAtWords: fullAt > 0 ? fullAt : undefined }, { weight: w }]
  return texts.map((t, i) => joinVectors([l[i], s[i]], ensembleScales(parts, [fullAt > 0 ? countPatentWords(t, fullAt) : 0, 0])))
}

const cosineOf =
  (embed: Embedder): Similarity =>
  async (pairs) => {
    const texts = [...new Set(pairs.flat())]
    const vectors = await embed(texts)
    const at = new Map(texts.map((t, i) => [t, vectors[i]]))
    return pairs.map(([a, b]) => dot(at.get(a)!, at.get(b)!))
  }

/** Shrinkage values of the alignment tried; the one with the best dev Pearson is reported as chosen. */
const SHRINKAGES = [0.01, 0.03, 0.1, 0.3, 1]

const main = async () => {
  const versionDir = await fs.realpath(values.artifacts)
  const scheme = await readScheme(versionDir)
  const tasks = buildTasks(scheme)
  // The trainer the encoder stage would use here (ENCODER_TRAINER, default: native where Debian's
  // fasttext is installed), with its budget; --fasttext overrides any of it.
  const trainer = await Effect.runPromise(resolvedTrainer)
  const fasttextOptions = { ...trainerOptions(trainer), ...JSON.parse(values.fasttext) }
  // Trained once without the alignment; each alignment below is the map of these vectors, which is
  // exactly what a model trained with that alignment serves (cpc-alignment.ts: the map is linear).
  const fasttext = await trainedEncoder(versionDir, "fasttext", { ...fasttextOptions, cpcAlignment: false })
  const lsa = await trainedEncoder(versionDir, "lsa", {})
  const d = fasttext.encoder.dimensions
  const unaligned = embedderOf(fasttext.encoder)
  const lsaVectors = embedderOf(lsa.encoder)
  // The scheme pairs the encoder stage learns its map from: held-out main groups left out.
  const training = schemePairs(
    scheme.filter((e) => !isHeldOutCpcSymbol(e.symbol)),
    fasttextOptions.alignmentPairs ?? defaultSubwordTrainingOptions.alignmentPairs
  )
  const trainingTexts = [...new Set([...training.related.flat(), ...training.unrelated.flat()])]
  const trainingVectors = new Map((await unaligned(trainingTexts)).map((v, i) => [trainingTexts[i], v]))
  const vectorPairs = (pairs: ReadonlyArray<readonly [string, string]>) => pairs.map(([a, b]) => [trainingVectors.get(a)!, trainingVectors.get(b)!] as const)
  const alignmentStarted = Date.now()
  const maps = SHRINKAGES.map((shrinkage) => ({ shrinkage, w: cpcAlignment({ related: vectorPairs(training.related), unrelated: vectorPairs(training.unrelated) }, d, { shrinkage })! }))
  const alignmentSeconds = (Date.now() - alignmentStarted) / 1000 / maps.length
  const defaultShrinkage = defaultAlignmentOptions.shrinkage
  const aligned = alignedEmbedder(unaligned, maps.find((m) => m.shrinkage === defaultShrinkage)!.w, d)

  const methods: Array<[string, Similarity, number | null]> = [
    [`subword encoder, CPC-aligned (ENCODER=fasttext, the default alignment: shrinkage ${defaultShrinkage})`, cosineOf(aligned), fasttext.seconds + alignmentSeconds],
    ...maps.filter((m) => m.shrinkage !== defaultShrinkage).map((m) => [`subword encoder, CPC-aligned, shrinkage ${m.shrinkage}`, cosineOf(alignedEmbedder(unaligned, m.w, d)), null] as [string, Similarity, number | null]),
    ["subword encoder, not aligned (no CPC map: the default before 2026-11-29 morning)", cosineOf(unaligned), fasttext.seconds],
    ["LSA encoder (ENCODER=lsa)", cosineOf(lsaVectors), lsa.seconds],
    // The ensemble (ENCODER=ensemble) joins exactly these two models' vectors.
    ...[...new Set([0.3, 0.4, DEFAULT_SUBWORD_WEIGHT, 0.5, 0.7])].sort((a, b) => a - b).map(
      (w) => [`ensemble with the aligned subword part, weight ${w}, LSA full from ${LSA_FULL_AT_WORDS} words (ENCODER=ensemble${w === DEFAULT_SUBWORD_WEIGHT ? ", the default" : ""})`, cosineOf(ensembleEmbedder(lsaVectors, aligned, w, LSA_FULL_AT_WORDS)), null] as [string, Similarity, number | null]
    ),
    ...[0, 4, 16].map(
      (n) => [`ensemble with the aligned subword part, weight ${DEFAULT_SUBWORD_WEIGHT}, ${n ? `LSA full from ${n} words` : "LSA at full weight for every text (the default before 2026-11-29 evening)"}`, cosineOf(ensembleEmbedder(lsaVectors, aligned, DEFAULT_SUBWORD_WEIGHT, n)), null] as [string, Similarity, number | null]
    ),
    [`ensemble with the unaligned subword part, weight ${DEFAULT_SUBWORD_WEIGHT} (no CPC map)`, cosineOf(ensembleEmbedder(lsaVectors, unaligned, DEFAULT_SUBWORD_WEIGHT, LSA_FULL_AT_WORDS)), null],
    ["Jaccard of stems", jaccardOfStems, null],
    ["TF-IDF of character trigrams", trigramTfIdf(scheme.map((e) => e.title)), null]
  ]
  const short = (t: string) => tokenizePatentText(t).length <= 5
  const rows: Array<{
    method: string
    pearson: number
    spearman: number
    pearsonDev: number
    pearsonShortTitles: number
    rankingHard: number
    rankingEasy: number
    zeroCosineShare: number
    trainSeconds: number | null
  }> = []
  for (const [name, similarity, trainSeconds] of methods) {
    const cos = await similarity(tasks.pairs.map((p) => [p.a, p.b] as const))
    const pos = await similarity(tasks.triplets.map((t) => [t.anchor, t.positive] as const))
    const neg = await similarity(tasks.triplets.map((t) => [t.anchor, t.negative] as const))
    const scored = (split: "dev" | "test", keep: (p: Pair) => boolean = () => true) => {
      const at = tasks.pairs.map((p, i) => [p, i] as const).filter(([p]) => p.split === split && keep(p))
      return { pearson: pearson(at.map(([, i]) => cos[i]), at.map(([p]) => p.grade)), spearman: spearman(at.map(([, i]) => cos[i]), at.map(([p]) => p.grade)), pairs: at.length }
    }
    const accuracy = (hard: boolean) => {
      const idx = tasks.triplets.map((t, i) => [t, i] as const).filter(([t]) => t.hard === hard && t.split === "test")
      return idx.filter(([, i]) => pos[i] > neg[i]).length / idx.length
    }
    const test = scored("test")
    rows.push({
      method: name,
      pearson: test.pearson,
      spearman: test.spearman,
      pearsonDev: scored("dev").pearson,
      pearsonShortTitles: scored("test", (p) => short(p.a) && short(p.b)).pearson,
      rankingHard: accuracy(true),
      rankingEasy: accuracy(false),
      zeroCosineShare: cos.filter((c) => c === 0).length / cos.length,
      trainSeconds
    })
  }
  await fasttext.encoder.close()
  await lsa.encoder.close()
  const f3 = (x: number) => x.toFixed(3)
  const count = (split: "dev" | "test") => tasks.pairs.filter((p) => p.split === split).length
  const shortTest = tasks.pairs.filter((p) => p.split === "test" && short(p.a) && short(p.b)).length
  printTable(
    `Encoder similarity on held-out CPC titles (${tasks.heldOutGroups} main groups never trained on; test half ${count("test")} graded pairs, of them ${shortTest} between titles of at most 5 words; dev half ${count("dev")}, for choosing the alignment's shrinkage only)`,
    rows,
    [
      ["method", (r) => r.method],
      ["Pearson", (r) => f3(r.pearson)],
      ["Spearman", (r) => f3(r.spearman)],
      ["Pearson, short titles", (r) => f3(r.pearsonShortTitles)],
      ["Pearson, dev", (r) => f3(r.pearsonDev)],
      ["rank: parent > same-subclass", (r) => f3(r.rankingHard)],
      ["rank: parent > other section", (r) => f3(r.rankingEasy)],
      ["cos = 0", (r) => f3(r.zeroCosineShare)],
      ["train s", (r) => (r.trainSeconds === null ? "" : r.trainSeconds.toFixed(1))]
    ]
  )
  const bestOnDev = maps
    .map((m) => ({ shrinkage: m.shrinkage, dev: rows.find((r) => r.method.includes(m.shrinkage === defaultShrinkage ? "the default alignment" : `shrinkage ${m.shrinkage}`))!.pearsonDev }))
    .sort((p, q) => q.dev - p.dev)[0]
  process.stdout.write(`alignment learned from ${training.related.length} subgroup/parent pairs and ${training.unrelated.length} random pairs; best shrinkage on the dev half: ${bestOnDev.shrinkage} (the default is ${defaultShrinkage})\n`)
  process.stdout.write(`${fasttext.notes.join("\n")}\n`)
  if (!values["no-write"]) {
    await writeResult("encoder-similarity", {
      machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
      artifacts: versionDir,
      pairs: { test: count("test"), dev: count("dev"), shortTest },
      triplets: tasks.triplets.length,
      heldOutMainGroups: tasks.heldOutGroups,
      fastTextOptions: fasttextOptions,
      fastTextTraining: fasttext.notes,
      alignment: { related: training.related.length, unrelated: training.unrelated.length, defaultShrinkage, bestShrinkageOnDev: bestOnDev.shrinkage },
      methods: rows
    })
  }
}

await main()
