/**
 * The lexical channel alone (issue 16: hybrid search at 1M): BM25 top-100 for queries made as
 * hybrid search makes them (an application's first claim and its abstract), over one version's
 * lexical index, in this process, without HTTP or the dense channel. Prints p50/p99 and what a
 * query reads (terms, postings, bytes), so a change to the index layout or the pruning is
 * measured on its own before it is measured through `bench/scale.ts`.
 *
 *   node --import tsx bench/lexical.ts --artifacts <version dir> [--queries 200] [--warm 20] [--depth 100] [--no-write]
 *        [--tune 32:1,32:0.2,16:1 [--split dev|test]]
 *
 * --tune: BM25 alone on the held-out citations of bench/retrieval.ts (granted queries, their own
 * document excluded, relevant = examiner-cited references in the corpus, split dev/test by the
 * same hash) for each query-term selection listed as maxTerms:maxDocFraction, with its cost at
 * this version: the selection is chosen on the dev split, and only the chosen one is reported on
 * test (--split test).
 */
import * as path from "node:path"
import { parseArgs } from "node:util"
import { seededRandom } from "../core/random.ts"
import { loadSearchCorpus } from "../core/search/corpus.ts"
import { indexedText } from "../core/encoder/document-text.ts"
import { DEFAULT_TERM_SELECTION, LexicalIndex, type TermSelection } from "../core/search/lexical.ts"
import { openSearchState } from "../core/search/open.ts"
import { citedReferences, splitOf } from "./held-out.ts"
import { printTable, writeResult } from "./report.ts"
import { openSearchTables } from "./search-tables.ts"

const { values } = parseArgs({
  options: {
    artifacts: { type: "string" },
    queries: { type: "string", default: "200" },
    warm: { type: "string", default: "20" },
    depth: { type: "string", default: "100" },
    tune: { type: "string" },
    split: { type: "string", default: "dev" },
    "no-write": { type: "boolean", default: false }
  }
})
if (!values.artifacts) {
  process.stderr.write("usage: bench/lexical.ts --artifacts <version dir> [--queries 200] [--warm 20] [--depth 100] [--no-write]\n")
  process.exit(2)
}
const versionDir = path.resolve(values.artifacts)
const queries = Number(values.queries)
const warm = Number(values.warm)
const depth = Number(values.depth)

const tables = await openSearchTables(versionDir)
const corpus = await loadSearchCorpus(tables.rows)
const lexical = await LexicalIndex.open(versionDir, tables.rows, corpus)

/** Latency of `index` over hybrid-style queries (abstract + first claim of sampled applications). */
const timeQueries = async (index: LexicalIndex) => {
  const random = seededRandom(7)
  const apps = await tables.rows(`
    SELECT a.app_num, c.text AS claim, a.abstract FROM applications a JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1
    WHERE a.abstract IS NOT NULL USING SAMPLE reservoir(${queries + warm} ROWS) REPEATABLE (7)`)
  const texts = apps.map((a) => `${String(a.abstract)}\n${String(a.claim)}`)
  texts.sort(() => random() - 0.5)
  const times: number[] = []
  const before = index.readStats()
  for (let i = 0; i < texts.length; i++) {
    const started = performance.now()
    await index.search(texts[i]!, depth)
    if (i >= warm) times.push(performance.now() - started)
  }
  const after = index.readStats()
  const n = after.queries - before.queries
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  return {
    queries: times.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    termsPerQuery: (after.terms - before.terms) / n,
    postingsReadPerQuery: (after.postingsRead - before.postingsRead) / n,
    bytesReadPerQuery: (after.bytesRead - before.bytesRead) / n
  }
}

/** bench/retrieval.ts's held-out queries of one split: granted applications and their examiner-cited references in the corpus. */
const heldOutQueries = async (split: string, max = 300) => {
  const state = await openSearchState(versionDir, tables.rows, { keepEdges: true, vectorBudgetBytes: 0 })
  const texts = new Map<number, string>()
  for (const r of await tables.rows(`
      SELECT a.app_num, a.title, a.abstract, fc.text AS claim
      FROM applications a LEFT JOIN (SELECT app_num, arg_min(text, claim_num) AS text FROM claims GROUP BY app_num) fc USING (app_num)
      WHERE a.grant_date IS NOT NULL`)) {
    const key = state.corpus.keyOf.get(String(r.app_num))
    const text = indexedText({ abstract: (r.abstract as string) ?? null, firstClaim: (r.claim as string) ?? null, title: String(r.title ?? "") })
    if (key !== undefined && key < state.corpus.vectorCount && text) texts.set(key, text)
  }
  const relevantBy = (examinerOnly: boolean) => citedReferences(state.edges!, (k) => texts.has(k), examinerOnly)
  let relevant = relevantBy(true)
  if (relevant.size < 30) relevant = relevantBy(false)
  const candidates = [...relevant.keys()].sort((a, b) => state.corpus.appNums[a].localeCompare(state.corpus.appNums[b]))
  const step = Math.max(1, Math.floor(candidates.length / max))
  const chosen = candidates.filter((_, i) => i % step === 0).slice(0, max)
  const out = chosen.filter((k) => splitOf(state.corpus.appNums[k]) === split).map((key) => ({ key, text: texts.get(key)!, relevant: relevant.get(key)! }))
  await state.close()
  return out
}

const quality = async (index: LexicalIndex, held: Awaited<ReturnType<typeof heldOutQueries>>) => {
  let r10 = 0
  let r100 = 0
  let mrr = 0
  for (const q of held) {
    const top = (await index.search(q.text, 100, (k) => k !== q.key)).map((h) => h.key)
    const found = (n: number) => top.slice(0, n).filter((k) => q.relevant.has(k)).length / q.relevant.size
    const first = top.findIndex((k) => q.relevant.has(k))
    r10 += found(10)
    r100 += found(100)
    mrr += first === -1 ? 0 : 1 / (first + 1)
  }
  const n = held.length || 1
  return { queries: held.length, recallAt10: r10 / n, recallAt100: r100 / n, mrr: mrr / n }
}

const f3 = (x: number) => x.toFixed(3)
const label = (s: TermSelection) => `${s.maxTerms} terms, df ≤ ${s.maxDocFraction}`
if (values.tune) {
  const held = await heldOutQueries(values.split!)
  const rows = []
  for (const spec of values.tune.split(",")) {
    const [maxTerms, maxDocFraction] = spec.split(":").map(Number)
    const selection = { maxTerms: maxTerms!, maxDocFraction: maxDocFraction ?? 1 }
    const index = lexical.withSelection(selection)
    rows.push({ selection, ...(await timeQueries(index)), ...(await quality(index, held)) })
  }
  printTable(`BM25 alone by query-term selection, ${values.split} split, ${corpus.size.toLocaleString("en-US")} applications (${versionDir})`, rows, [
    ["selection", (r) => label(r.selection)],
    ["queries", (r) => String(r.queries)],
    ["recall@10", (r) => f3(r.recallAt10)],
    ["recall@100", (r) => f3(r.recallAt100)],
    ["MRR", (r) => f3(r.mrr)],
    ["p50 ms", (r) => r.p50Ms.toFixed(2)],
    ["terms/query", (r) => r.termsPerQuery.toFixed(1)],
    ["postings/query", (r) => Math.round(r.postingsReadPerQuery).toLocaleString("en-US")]
  ])
  if (!values["no-write"]) await writeResult(`lexical-selection-${values.split}-${corpus.size}`, { versionDir, rows })
} else {
  const row = { documents: corpus.size, selection: DEFAULT_TERM_SELECTION, ...(await timeQueries(lexical)) }
  printTable(`Lexical channel alone, top ${depth}, ${corpus.size.toLocaleString("en-US")} applications, ${label(row.selection)} (${versionDir})`, [row], [
    ["queries", (r) => String(r.queries)],
    ["p50 ms", (r) => r.p50Ms.toFixed(2)],
    ["p99 ms", (r) => r.p99Ms.toFixed(2)],
    ["terms/query", (r) => r.termsPerQuery.toFixed(1)],
    ["postings read/query", (r) => Math.round(r.postingsReadPerQuery).toLocaleString("en-US")],
    ["bytes read/query", (r) => Math.round(r.bytesReadPerQuery).toLocaleString("en-US")]
  ])
  if (!values["no-write"]) await writeResult(`lexical-${corpus.size}`, { versionDir, depth, ...row })
}
await lexical.close()
tables.close()
