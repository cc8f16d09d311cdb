/**
 * Prior-art search and claims lookup (SPEC 2.3, 2.4, 4.1).
 *
 * Everything a search needs from the served artifact version (corpus maps, vector index,
 * lexical postings, citation graph) is opened once, on the first search, and kept for the life
 * of the service; a request then costs one hub call to encode the query (skipped when the
 * query-vector cache has it), in-memory retrieval, and one DuckDB read of the result rows.
 *
 * useReranking calls the hub's late-interaction reranker; the hub loads the reranker on first
 * use when it is not loaded yet (so the first reranked search after a cold start pays its load
 * time; POST /warmup?rerank=1 pays it ahead).
 */
import { type ApplicationRecord, type ClaimRecordRow, RECORDS } from "../../core/serving/names.ts"
import type { RecordFile } from "../../core/serving/reader.ts"
import { Config, Duration, Effect, Option, Redacted } from "effect"
import { indexedText } from "../../core/encoder/document-text.ts"
import { compileFilter } from "../../core/search/filters.ts"
import type { FusedHit } from "../../core/search/fusion.ts"
import { openSearchState, type SearchState } from "../../core/search/open.ts"
import { applyRerank, RERANK_DEPTH, retrieve, RETRIEVAL_WEIGHTS } from "../../core/search/retrieve.ts"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { Settings } from "../config.ts"
import { BackendFailed, CorpusUnavailable, UpstreamUnavailable } from "../domain/errors.ts"
import { HubClient } from "../hub/HubClient.ts"
import type { PriorArtClaimsRequest, PriorArtSearchRequest } from "./Api.ts"
import { cacheKey, DiskCache, versionCacheDir } from "../state/disk-cache.ts"
import { assembleClaimsLookup, type ApplicationRow, type ClaimRow } from "./claims-lookup.ts"
import { type ChatModel, draftExtractive, draftWithModel, type HypotheticalDocument, type Neighbour } from "./hyde.ts"
import { costOf, noSpend, parsePriceTable, type Spend } from "./pricing.ts"

export type SearchRequest = typeof PriorArtSearchRequest.Type
export type ClaimsRequest = typeof PriorArtClaimsRequest.Type

/** Nearest documents the extractive drafter reads, those with an abstract or a first claim first … */
const HYDE_NEIGHBOURS = 5
/** … chosen among this many nearest documents (many records carry a title alone). */
const HYDE_POOL = 25

export type Specification = { readonly application_number: string } & Record<string, unknown>

interface CachedAnswer {
  readonly specifications: ReadonlyArray<Specification>
  readonly extra: Record<string, unknown>
}

const placeholders = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `$${i + from}`).join(", ")
const collapse = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").trim()
const ymd = (n: number) => (n === 0 ? null : `${Math.floor(n / 10000)}-${String(Math.floor(n / 100) % 100).padStart(2, "0")}-${String(n % 100).padStart(2, "0")}`)

/** The request as the result cache sees it: texts whitespace-normalized, lists sorted, defaults filled. */
export const normalizedRequest = (r: SearchRequest) => ({
  claims: collapse(r.claims),
  abstract: collapse(r.abstract),
  count: r.count,
  useReranking: r.useReranking,
  includeClaims: r.includeClaims,
  hyde: r.hyde,
  hybrid: r.hybrid,
  filedBefore: r.filedBefore ?? null,
  filedAfter: r.filedAfter ?? null,
  cpc3: r.cpc3 ? [...new Set(r.cpc3.map((s) => s.toUpperCase()))].sort() : null,
  country: r.country?.toUpperCase() ?? null
})

export class PriorArtService extends Effect.Service<PriorArtService>()("api/PriorArtService", {
  effect: Effect.gen(function* () {
    const store = yield* ArtifactStore
    const hub = yield* HubClient
    const settings = yield* Settings
    const llmUrl = yield* Config.option(Config.string("LLM_URL")).pipe(Effect.orDie)
    const llmModel = yield* Config.option(Config.string("LLM_MODEL")).pipe(Effect.orDie)
    const llmKey = yield* Config.option(Config.redacted("LLM_API_KEY")).pipe(Effect.orDie)
    const chat: ChatModel | undefined =
      Option.isSome(llmUrl) && Option.isSome(llmModel)
        ? { url: llmUrl.value, model: llmModel.value, apiKey: Option.getOrUndefined(Option.map(llmKey, Redacted.value)) }
        : undefined
    const priced = parsePriceTable(Option.getOrUndefined(yield* Config.option(Config.string("PRIOR_ART_PRICES")).pipe(Effect.orDie)))
    if (priced.error) yield* Effect.logWarning(priced.error)
    const prices = priced.prices

    const rows = <T = Record<string, unknown>>(sql: string, params: ReadonlyArray<string | number> = [], tables: ReadonlyArray<string> = []) =>
      store.query(sql, params as never, tables) as unknown as Effect.Effect<T[], CorpusUnavailable>

    const served = Effect.suspend(() =>
      Option.match(store.served(), {
        onNone: () => Effect.fail(new CorpusUnavailable({ message: "the search index is not available: no artifact version is served" })),
        onSome: Effect.succeed
      })
    )

    // The search state of the served version, opened once (a failed open is retried next time),
    // and closed (its file handles) when the version is released after a switch.
    let opening: Promise<SearchState> | undefined
    yield* store.onRelease(async () => (await opening?.catch(() => undefined))?.close())
    const searchState = Effect.flatMap(served, (v) =>
      Effect.tryPromise({
        try: () =>
          (opening ??= openSearchState(v.versionDir, (sql) => Effect.runPromise(rows(sql))).catch((e) => {
            opening = undefined
            throw e
          })),
        catch: (e) => new CorpusUnavailable({ message: `the search index cannot be opened: ${e instanceof Error ? e.message : String(e)}` })
      })
    )

    if (settings.preloadSearch && Option.isSome(store.served())) {
      yield* searchState.pipe(
        Effect.timed,
        Effect.tap(([took, state]) => Effect.logInfo(`prior-art search state opened: ${state.corpus.size} applications in ${Math.round(Duration.toMillis(took))} ms`)),
        Effect.catchAll((e) => Effect.logWarning(`prior-art search state not preloaded (the first search retries): ${e.message}`)),
        store.preload
      )
    }

    const caches = new Map<string, { vectors: DiskCache<{ vector: number[] }>; results: DiskCache<CachedAnswer> }>()
    const cachesFor = (version: string) => {
      let c = caches.get(version)
      if (!c) {
        c = {
          vectors: new DiskCache(versionCacheDir(settings.stateDir, "prior-art-cache", version, "vectors"), 2000),
          results: new DiskCache(versionCacheDir(settings.stateDir, "prior-art-cache", version, "results"), 500)
        }
        caches.set(version, c)
      }
      return c
    }
    const ignoreCacheFailure = <A>(p: () => Promise<A>) => Effect.promise(() => p().catch(() => undefined))

    /** Query vector through the cache layer; `spend` counts only real encodes. */
    const encode = (version: string, dims: number, text: string, force: boolean, spend: Spend) =>
      Effect.gen(function* () {
        const cache = cachesFor(version).vectors
        const key = cacheKey({ version, text })
        if (!force) {
          const hit = yield* ignoreCacheFailure(() => cache.get(key))
          if (hit) return { vector: Float32Array.from(hit.vector), cached: true }
        }
        const { vectors } = yield* hub.encode([text])
        const v = vectors[0]
        if (!v || v.length !== dims) return yield* Effect.fail(new UpstreamUnavailable({ message: `the hub's encoder answered ${v?.length ?? 0} dimensions; the index holds ${dims}` }))
        spend.encodedChars += text.length
        yield* ignoreCacheFailure(() => cache.set(key, { vector: [...v] }))
        return { vector: Float32Array.from(v), cached: false }
      })

    // Serving records (one positioned read per application) when the version has them; SQL over
    // the tables for versions built before the serving stage.
    const claimRecords = store.records<ReadonlyArray<ClaimRecordRow>>(RECORDS.claims)
    const applicationRecords = store.records<ApplicationRecord>(RECORDS.applications)
    const claimsByApp = (file: RecordFile<ReadonlyArray<ClaimRecordRow>>, appNums: ReadonlyArray<string>) => store.readRecords(file, appNums)

    const firstClaims = (appNums: ReadonlyArray<string>) =>
      appNums.length === 0
        ? Effect.succeed([] as Array<{ app_num: string; text: string }>)
        : Option.isSome(claimRecords)
          ? Effect.map(claimsByApp(claimRecords.value, appNums), (found) =>
              [...found].flatMap(([app_num, claims]) => (claims[0]?.text ? [{ app_num, text: claims[0].text }] : []))
            )
          : rows<{ app_num: string; text: string }>(
              `SELECT app_num, arg_min(text, claim_num) AS text FROM claims WHERE app_num IN (${placeholders(appNums.length)}) GROUP BY app_num`,
              appNums,
              ["claims"]
            )
    const applicationRows = (appNums: ReadonlyArray<string>) =>
      appNums.length === 0
        ? Effect.succeed([] as ApplicationRow[])
        : Option.isSome(applicationRecords)
          ? Effect.map(store.readRecords(applicationRecords.value, appNums), (found) =>
              [...found].map(([app_num, a]): ApplicationRow => ({ app_num, title: a.title, abstract: a.abstract }))
            )
          : rows<ApplicationRow>(`SELECT app_num, title, abstract FROM applications WHERE app_num IN (${placeholders(appNums.length)})`, appNums, ["applications"])
    const claimRows = (appNums: ReadonlyArray<string>) =>
      appNums.length === 0
        ? Effect.succeed([] as ClaimRow[])
        : Option.isSome(claimRecords)
          ? Effect.map(claimsByApp(claimRecords.value, appNums), (found) => [...found].flatMap(([app_num, claims]) => claims.map((c): ClaimRow => ({ app_num, ...c }))))
          : rows<ClaimRow>(
              `SELECT app_num, claim_num, text, depends_on, is_independent FROM claims WHERE app_num IN (${placeholders(appNums.length)}) ORDER BY app_num, claim_num`,
              appNums,
              ["claims"]
            )

    /**
     * Title, abstract and first claim per application, in the order given: stored documents by key,
     * the tables for the rest; `known` are ones this request already read (the reranked head).
     */
    const neighboursOf = (state: SearchState, appNums: ReadonlyArray<string>, known: ReadonlyArray<Neighbour> = []) =>
      Effect.gen(function* () {
        const wanted = new Set(appNums)
        const found = new Map<string, Neighbour>(known.filter((n) => wanted.has(n.appNum)).map((n) => [n.appNum, n]))
        if (state.stored) {
          const keys = appNums.flatMap((n) => (found.has(n) ? [] : (state.corpus.keyOf.get(n) ?? [])))
          for (const [key, d] of yield* Effect.promise(() => state.stored!.read(keys))) {
            const appNum = state.corpus.appNums[key]
            found.set(appNum, { appNum, title: d.title, abstract: d.abstract, firstClaim: d.firstClaim })
          }
        }
        const rest = appNums.filter((n) => !found.has(n))
        if (rest.length > 0) {
          const [apps, claims] = yield* Effect.all([applicationRows(rest), firstClaims(rest)], { concurrency: 2 })
          const c = new Map(claims.map((r) => [r.app_num, r.text]))
          for (const a of apps) found.set(a.app_num, { appNum: a.app_num, title: a.title ?? null, abstract: a.abstract ?? null, firstClaim: c.get(a.app_num) ?? null })
        }
        return appNums.map((n): Neighbour => found.get(n) ?? { appNum: n, title: null, abstract: null, firstClaim: null })
      })

    const search = (request: SearchRequest, requestId: string) =>
      Effect.gen(function* () {
        const started = performance.now()
        const version = (yield* served).manifest.version
        const normalized = normalizedRequest(request)
        // The retrieval weights are part of the answer: a retune must not keep serving the old ranking from disk.
        const resultKey = cacheKey({ version, retrieval: RETRIEVAL_WEIGHTS, request: normalized })
        const { results } = cachesFor(version)
        const force = request.forceReprocess
        const finish = (specifications: ReadonlyArray<Specification>, extra: Record<string, unknown>, cached: boolean, spend: Spend) => {
          const returned = specifications.length
          return {
            specifications,
            metadata: {
              requested_count: request.count,
              returned_count: returned,
              cached_count: cached ? returned : 0,
              newly_processed_count: cached ? 0 : returned,
              cache_hit_rate: cached && returned > 0 ? 1 : 0,
              processing_time_seconds: Math.round(performance.now() - started) / 1000,
              ...costOf(prices, cached ? noSpend() : spend),
              request_id: requestId,
              timestamp: new Date(settings.now()).toISOString(),
              context_coverage: {
                title: specifications.filter((s) => s.title).length,
                abstract: specifications.filter((s) => s.abstract).length,
                claims: specifications.filter((s) => Array.isArray(s.claims) && s.claims.length > 0).length,
                description_text: 0
              },
              ...extra,
              cache: { ...(extra.cache as object), results: force ? "bypass" : cached ? "hit" : "miss" }
            }
          }
        }
        if (!force) {
          const hit = yield* ignoreCacheFailure(() => results.get(resultKey))
          if (hit) return finish(hit.specifications, { ...hit.extra, cache: { query_vector: "not needed" } }, true, noSpend())
        }

        const state = yield* searchState
        const spend = noSpend()
        const filter = compileFilter(state.corpus, request)
        const query = { abstract: request.abstract?.trim() || undefined, claims: request.claims?.trim() || undefined }
        const queryText = indexedText({ abstract: query.abstract, firstClaim: query.claims })
        let encoded = yield* encode(version, state.dims, queryText, force, spend)
        let searchText = queryText
        let hyde: HypotheticalDocument | undefined
        if (request.hyde) {
          hyde = chat
            ? yield* Effect.tryPromise((signal) => draftWithModel(chat, query, signal)).pipe(
                Effect.tap(() => Effect.sync(() => void spend.llmCalls++)),
                Effect.timeout("20 seconds"),
                Effect.option,
                Effect.map(Option.getOrUndefined)
              )
            : undefined
          if (!hyde) {
            const near = state.dense.search(encoded.vector, { depth: HYDE_POOL, accepts: filter.accepts, filtered: filter.active }).hits
            const neighbours = yield* neighboursOf(state, near.map((h) => state.corpus.appNums[h.key]))
            // Documents with an abstract or a claim first; records with a title alone fill in.
            const withText = [...neighbours.filter((n) => n.abstract || n.firstClaim), ...neighbours.filter((n) => !n.abstract && !n.firstClaim)]
            const drafted = draftExtractive(query, withText.slice(0, HYDE_NEIGHBOURS), state.lexical ? (stem) => state.lexical!.idf(stem) : undefined)
            hyde = chat ? { ...drafted, note: "the chat model failed; the extractive drafter wrote this instead" } : drafted
          }
          searchText = hyde.text
          encoded = yield* encode(version, state.dims, searchText, force, spend)
        }
        const retrieval = yield* Effect.tryPromise({
          try: () =>
            retrieve(state, {
              vector: encoded.vector,
              text: searchText,
              depth: request.count,
              channels: { dense: true, citations: true, lexical: request.hybrid },
              accepts: filter.accepts,
              filtered: filter.active
            }),
          catch: (e) => new BackendFailed({ message: `search failed: ${e instanceof Error ? e.message : String(e)}` })
        })
        let hits: Array<FusedHit & { rerank?: number }> = retrieval.hits
        // The reranked head's texts: the answer shows the same documents (count ≤ 50 comes from the head), so they are read once.
        let texts: ReadonlyArray<Neighbour> = []
        if (request.useReranking && hits.length > 0) {
          const head = hits.slice(0, RERANK_DEPTH).map((h) => state.corpus.appNums[h.key])
          texts = yield* neighboursOf(state, head)
          const scored = yield* hub.rerank(
            searchText,
            texts.map((n) => ({ id: n.appNum, text: [n.title, n.abstract, n.firstClaim].filter(Boolean).join("\n") }))
          )
          spend.rerankedCandidates += texts.length
          const byKey = new Map(scored.scores.map((s) => [state.corpus.keyOf.get(s.id)!, s.score]))
          hits = applyRerank(hits, byKey)
        }
        const top = hits.slice(0, request.count)
        const appNums = top.map((h) => state.corpus.appNums[h.key])
        const [shown, claims] = yield* Effect.all([neighboursOf(state, appNums, texts), request.includeClaims ? claimRows(appNums) : Effect.succeed([] as ClaimRow[])], {
          concurrency: 2
        })
        const apps = shown.map((d): ApplicationRow => ({ app_num: d.appNum, title: d.title, abstract: d.abstract }))
        const lookup = assembleClaimsLookup(appNums, apps, claims, { format: "parsed", independentOnly: false })
        const byApp = new Map(lookup.specifications.map((s) => [s.application_number, s]))
        const specifications = top.map((h, i): Specification => {
          const appNum = appNums[i]
          const row = byApp.get(appNum)
          const c = state.corpus
          const cpc: string[] = []
          for (let j = c.cpcOffsets[h.key]; j < c.cpcOffsets[h.key + 1]; j++) cpc.push(c.subclasses[c.cpcIds[j]])
          return {
            application_number: appNum,
            title: row?.title ?? null,
            title_source: request.includeClaims ? "application" : "namespace",
            ...(request.includeClaims ? { abstract: row?.abstract ?? null, claims: row?.claims ?? [] } : {}),
            description_text: null,
            rank: i + 1,
            score: Math.round(h.score * 1e6) / 1e6,
            similarity: retrieval.similarity.has(h.key) ? Math.round(retrieval.similarity.get(h.key)! * 1e6) / 1e6 : null,
            ranks: { dense: h.ranks.dense ?? null, citations: h.ranks.citations ?? null, lexical: h.ranks.lexical ?? null, ...(request.useReranking ? { rerank: h.ranks.rerank ?? null } : {}) },
            ...(request.useReranking ? { rerank_score: h.rerank ?? null } : {}),
            ...(request.hybrid ? { matched_legs: h.legs } : {}),
            filing_date: ymd(c.filed[h.key]),
            country: c.countries[c.country[h.key]] || null,
            cpc_subclasses: cpc.sort()
          }
        })
        const extra: Record<string, unknown> = {
          ...(hyde ? { hyde: { text: hyde.text, abstract: hyde.abstract, claim: hyde.claim, generator: hyde.generator, ...(hyde.sources ? { sources: hyde.sources } : {}), ...(hyde.note ? { note: hyde.note } : {}) } } : {}),
          filter: {
            applied: filter.active,
            ...filter.applied,
            dense_search: retrieval.dense ? { mode: retrieval.dense.mode, searched: retrieval.dense.searched, ...(retrieval.dense.admitted !== undefined ? { admitted: retrieval.dense.admitted } : {}) } : undefined
          },
          retrieval: {
            channels: retrieval.channelCounts,
            fusion: retrieval.fusion === "model" ? `learned: a logistic model over dense rank, text similarity${request.hybrid ? ", BM25 rank" : ""} and citation-graph evidence` : "reciprocal-rank fusion, k = 60",
            // The applications whose vectors expanded the query (pseudo-relevance feedback).
            feedback: retrieval.feedback.map((k) => state.corpus.appNums[k]),
            reranked: request.useReranking ? Math.min(RERANK_DEPTH, retrieval.hits.length) : 0,
            artifact_version: version
          }
        }
        yield* ignoreCacheFailure(() => results.set(resultKey, { specifications, extra }))
        return finish(specifications, { ...extra, cache: { query_vector: force ? "bypass" : encoded.cached ? "hit" : "miss" } }, false, spend)
      }).pipe(
        Effect.catchAllDefect((d) => Effect.fail(new BackendFailed({ message: `search failed: ${d instanceof Error ? d.message : String(d)}` }))),
        Effect.withSpan("PriorArtService.search", { captureStackTrace: false })
      )

    const getClaims = (request: ClaimsRequest, requestId: string) =>
      Effect.gen(function* () {
        const started = performance.now()
        yield* served
        const wanted = [...new Set(request.appNumbers)]
        const [apps, claims] = yield* Effect.all([applicationRows(wanted), claimRows(wanted)], { concurrency: 2 })
        const out = assembleClaimsLookup(wanted, apps, claims, { format: request.format, independentOnly: request.independentOnly })
        return {
          specifications: out.specifications,
          metadata: {
            requested: request.appNumbers.length,
            returned: out.specifications.length,
            not_found: out.notFound,
            lookup_ms: Math.round((performance.now() - started) * 100) / 100,
            request_id: requestId,
            claims_withheld: out.withheld,
            format: request.format,
            independent_only: request.independentOnly
          }
        }
      }).pipe(Effect.withSpan("PriorArtService.getClaims", { captureStackTrace: false }))

    return { search, searchPriorArt: search, getClaims, getPatentClaims: getClaims } as const
  })
}) {}
