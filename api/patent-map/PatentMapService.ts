/**
 * The patent space (SPEC 2.2, 2.5, 4.2): neighbourhoods, cited art resolved to positions,
 * locating text or an application, the sampled point cloud, and the whitespace atlas.
 *
 * Neighbours come from the HNSW index (kept open, memory-mapped) and are re-scored with the exact
 * cosine against the stored vectors, so their order is by cosine similarity, never by 3D distance.
 * Coordinates are read as stored (map/coordinates.parquet), never recomputed.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Option } from "effect"
import { indexedText } from "../../core/encoder/document-text.ts"
import { type Quantization, viewIndex } from "../../core/index/hnsw.ts"
import { VectorRows, vectorFilePath } from "../../core/index/vector-file.ts"
import { type ApplicationRecord, type CitationRecordRow, type ClaimRecordRow, type PointRecord, RECORDS } from "../../core/serving/names.ts"
import type { RecordFile } from "../../core/serving/reader.ts"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { MapCoordinatesUnavailable, NotFound, NotIndexed, UpstreamUnavailable } from "../domain/errors.ts"
import { HubClient } from "../hub/HubClient.ts"
import { atlasCache } from "./atlas.ts"
import { basePoint, cosine, groupCitations, POINT_TABLES, pointOfRecord, type PointRow, pointsSql, rankWeightedCentroid, toPointRow } from "./points.ts"

/** Citations: at most this many references; examiner citations are never dropped. */
export const CITATION_LIMIT = 150
/** Points: rows of the index (in stored order) one request may scan. */
export const SCAN_BUDGET = 150_000
/** Extra HNSW candidates re-scored exactly, so approximate order cannot drop a true neighbour. */
const OVERFETCH = 2

export const RE_ENCODED_NOTE =
  "the application is not in the vector index: its abstract and first claim were encoded as query text, so scores top out near 0.87 and the landing is the rank-weighted centroid of the top 8 hits"

const now = () => new Date().toISOString()

export interface PointsQuery {
  readonly limit: number
  readonly section?: string | undefined
  readonly artUnit?: string | undefined
}

interface OpenIndex {
  readonly search: (vector: Float32Array, k: number) => ReadonlyArray<number>
  /** The same search with each key's exact cosine from the rows the index re-scored with; undefined without vectors.f32. */
  readonly searchScored: (vector: Float32Array, k: number) => { readonly keys: ReadonlyArray<number>; readonly scores: ReadonlyArray<number> } | undefined
  readonly size: number
  /** Stored unit vectors by key from index/vectors.f32 (undefined for versions built before it). */
  readonly rows: Promise<VectorRows | undefined>
}

export class PatentMapService extends Effect.Service<PatentMapService>()("api/PatentMapService", {
  effect: Effect.gen(function* () {
    const artifacts = yield* ArtifactStore
    const hub = yield* HubClient

    // The index is opened once (a memory map) and kept for the life of the service.
    const opened: OpenIndex | string = Option.match(artifacts.served(), {
      onNone: () => "no artifact version is served",
      onSome: ({ versionDir }) => {
        try {
          const info = JSON.parse(fs.readFileSync(path.join(versionDir, "index", "index.json"), "utf8")) as { dims: number; quantization: Quantization }
          const index = viewIndex(path.join(versionDir, "index", "hnsw.usearch"), info.dims, info.quantization)
          return {
            size: index.size(),
            rows: VectorRows.open(vectorFilePath(versionDir), info.dims, index.size()).catch(() => undefined),
            search: (vector: Float32Array, k: number) => {
              const found = index.search(vector.slice(), Math.max(1, Math.min(k, index.size())), 0)
              return Array.from(found.keys, Number).filter((key) => key >= 0 && key < Number.MAX_SAFE_INTEGER)
            },
            searchScored: (vector: Float32Array, k: number) => index.nearestScored(vector, Math.max(1, Math.min(k, index.size())))
          }
        } catch (e) {
          return `the vector index cannot be opened: ${e instanceof Error ? e.message : String(e)}`
        }
      }
    })
    const index = typeof opened === "string" ? Effect.fail(new UpstreamUnavailable({ message: opened })) : Effect.succeed(opened)
    // The stored vectors' file handle goes with the version (a switch releases the old one).
    if (typeof opened !== "string") yield* artifacts.onRelease(async () => (await opened.rows)?.close())

    /** Dataset failures are a backend the route cannot reach (502 UPSTREAM_ERROR). */
    const query = (sql: string, params: ReadonlyArray<string | number> = [], tables: ReadonlyArray<string> = []) =>
      artifacts.query(sql, params, tables).pipe(Effect.mapError((e) => new UpstreamUnavailable({ message: e.message })))

    /** Stored vectors by key: positioned reads of vectors.f32, or the Parquet column for older versions. */
    const vectorsByKey = (keys: ReadonlyArray<number>) =>
      Effect.gen(function* () {
        const idx = yield* index
        const rows = yield* Effect.promise(() => idx.rows)
        if (rows) return yield* Effect.promise(() => rows.read(keys))
        const listed = keys.map(Number).join(",")
        // Vectors beside their keys (index/embeddings.parquet), or in vectors.parquet itself in versions written before it.
        const stored = yield* query(`SELECT v.key, e.vector FROM vectors v JOIN embeddings e USING (app_num) WHERE v.key IN (${listed})`, [], ["vectors", "embeddings"]).pipe(
          Effect.orElse(() => query(`SELECT key, vector FROM vectors WHERE key IN (${listed})`, [], ["vectors"]))
        )
        return new Map(stored.map((r) => [Number(r.key), Float32Array.from(r.vector as number[])]))
      })

    // Serving records when the version has them (one positioned read per key); SQL over the tables for older versions.
    const pointRecords = artifacts.records<PointRecord>(RECORDS.points)
    const applicationRecords = artifacts.records<ApplicationRecord>(RECORDS.applications)
    const citationRecords = artifacts.records<ReadonlyArray<CitationRecordRow>>(RECORDS.citations)
    const claimRecords = artifacts.records<ReadonlyArray<ClaimRecordRow>>(RECORDS.claims)
    const readRecords = <R, K extends string | number>(file: RecordFile<R>, keys: ReadonlyArray<K>) =>
      artifacts.readRecords(file, keys).pipe(Effect.mapError((e) => new UpstreamUnavailable({ message: e.message })))
    const applicationRecord = (file: RecordFile<ApplicationRecord>, appNum: string) => Effect.map(readRecords(file, [appNum]), (m) => m.get(appNum))

    /** The application's key in the vector index, or undefined when it has no vector. */
    const vectorKeyOf = (appNum: string) =>
      Option.isSome(applicationRecords)
        ? Effect.map(applicationRecord(applicationRecords.value, appNum), (a) => a?.key ?? undefined)
        : Effect.map(query(`SELECT key FROM vectors WHERE app_num = $1 LIMIT 1`, [appNum], ["vectors"]), ([row]) => (row ? Number(row.key) : undefined))

    const storedVector = (appNum: string) =>
      Effect.gen(function* () {
        const key = yield* vectorKeyOf(appNum)
        if (key === undefined) return undefined
        const vector = (yield* vectorsByKey([key])).get(key)
        return vector ? { key, vector } : undefined
      })

    const isKnown = (appNum: string) =>
      Option.isSome(applicationRecords)
        ? Effect.succeed(applicationRecords.value.has(appNum))
        : Effect.map(query(`SELECT 1 FROM applications WHERE app_num = $1 LIMIT 1`, [appNum], ["applications"]), (rows) => rows.length > 0)

    /** Points by vector key from the record file, in key order. */
    const pointsOfKeys = (file: RecordFile<PointRecord>, keys: ReadonlyArray<number>) =>
      Effect.map(readRecords(file, keys), (found) => [...found].sort(([a], [b]) => a - b).map(([key, r]) => pointOfRecord(key, r)))

    const pointsFromRecords = (points: RecordFile<PointRecord>, apps: RecordFile<ApplicationRecord>, where: Parameters<typeof pointsSql>[0]) =>
      "keys" in where
        ? pointsOfKeys(points, where.keys)
        : "appNums" in where
          ? Effect.flatMap(readRecords(apps, where.appNums), (found) => pointsOfKeys(points, [...found.values()].flatMap((a) => (a.key === null ? [] : [a.key]))))
          : Effect.map(
              Effect.tryPromise({ try: () => points.range(0, where.keyBelow), catch: (e) => new UpstreamUnavailable({ message: `points cannot be read: ${String(e)}` }) }),
              (rows) => rows.map(([key, r]) => pointOfRecord(key, r))
            )

    const pointsWhere = (where: Parameters<typeof pointsSql>[0]) =>
      Option.isSome(pointRecords) && Option.isSome(applicationRecords)
        ? pointsFromRecords(pointRecords.value, applicationRecords.value, where)
        : query(pointsSql(where), [], POINT_TABLES).pipe(Effect.map((rows) => rows.map(toPointRow)))

    /**
     * Candidates with their exact cosines. The index re-scores from the stored rows and hands back
     * the cosine of each (the same bits as cosine() over the row), so the rows are read once;
     * versions without vectors.f32 read them here.
     */
    const scoredCandidates = (vector: Float32Array, k: number) =>
      Effect.gen(function* () {
        const idx = yield* index
        const scored = idx.searchScored(vector, k)
        if (scored) return new Map(scored.keys.map((key, i) => [key, scored.scores[i]!]))
        const keys = idx.search(vector, k)
        const stored = keys.length ? yield* vectorsByKey(keys) : new Map<number, Float32Array>()
        return new Map([...stored].map(([key, row]) => [key, cosine(vector, row)]))
      })

    /** Nearest documents to `vector` by exact cosine, best first, with their points. */
    const nearest = (vector: Float32Array, k: number, exclude: (appNum: string) => boolean) =>
      Effect.gen(function* () {
        const scores = yield* scoredCandidates(vector, k * OVERFETCH + 4)
        if (!scores.size) return []
        const points = yield* pointsWhere({ keys: [...scores.keys()] })
        return points
          .filter((p) => scores.has(p.key) && !exclude(p.appNum))
          .map((p) => ({ p, score: scores.get(p.key)! }))
          .sort((a, b) => b.score - a.score || a.p.key - b.p.key)
          .slice(0, k)
          .map(({ p, score }) => ({ ...basePoint(p), score: Math.round(score * 1e6) / 1e6 }))
      })

    const neighborhood = (input: { readonly appNum: string; readonly topK: number }) =>
      Effect.gen(function* () {
        const stored = yield* storedVector(input.appNum)
        if (!stored) {
          const known = yield* isKnown(input.appNum)
          if (!known) return yield* Effect.fail(new NotIndexed({ message: `application ${input.appNum} is not in the index` }))
          // Known but without a vector (design, plant, no text): no position, no neighbours.
          return { appNum: input.appNum, self: null, neighbors: [], count: 0, timestamp: now() }
        }
        const [self] = yield* pointsWhere({ keys: [stored.key] })
        const neighbors = yield* nearest(stored.vector, input.topK, (a) => a === input.appNum)
        return { appNum: input.appNum, self: self ? basePoint(self) : null, neighbors, count: neighbors.length, timestamp: now() }
      }).pipe(Effect.withSpan("PatentMapService.neighborhood", { captureStackTrace: false }))

    /** One row per cited reference (application or document), examiner-cited when any citation of it is, in reference order. */
    const citedRefs = (appNum: string, year: number | undefined) =>
      Option.isSome(citationRecords)
        ? Effect.map(readRecords(citationRecords.value, [appNum]), (found) => groupCitations(found.get(appNum) ?? [], year))
        : query(
            `SELECT coalesce(cited_app, cited_doc) AS ref, any_value(cited_app) AS cited_app, bool_or(coalesce(examiner_cited, false)) AS examiner
             FROM citations WHERE citing_app = $1 ${year === undefined ? "" : "AND citing_filing_year = $2"}
             GROUP BY ref ORDER BY ref`,
            year === undefined ? [appNum] : [appNum, year],
            ["citations"]
          )

    const citations = (input: { readonly appNum: string; readonly year?: number | undefined }) =>
      Effect.gen(function* () {
        const rows = yield* citedRefs(input.appNum, input.year)
        const cited = rows.filter((r) => r.ref !== null).map((r) => ({ appNum: (r.cited_app as string | null) ?? null, examiner: Boolean(r.examiner) }))
        const appNums = [...new Set(cited.flatMap((c) => (c.appNum ? [c.appNum] : [])))]
        const located = new Map<string, PointRow>()
        if (appNums.length) for (const p of yield* pointsWhere({ appNums })) located.set(p.appNum, p)
        const indexed = cited.filter((c) => c.appNum && located.has(c.appNum))
        const examiner = indexed.filter((c) => c.examiner)
        const applicant = indexed.filter((c) => !c.examiner).slice(0, Math.max(0, CITATION_LIMIT - examiner.length))
        const points = [...examiner, ...applicant].map((c) => {
          const p = located.get(c.appNum!)!
          return { ...basePoint(p), examiner: c.examiner, title: p.title }
        })
        return {
          appNum: input.appNum,
          points,
          count: points.length,
          citedTotal: cited.length,
          notIndexed: cited.length - indexed.length,
          timestamp: now()
        }
      }).pipe(Effect.withSpan("PatentMapService.citations", { captureStackTrace: false }))

    const encodeText = (text: string) =>
      hub.encode([text]).pipe(
        Effect.flatMap((r) =>
          r.vectors[0] ? Effect.succeed(Float32Array.from(r.vectors[0])) : Effect.fail(new UpstreamUnavailable({ message: "the inference hub returned no vector" }))
        )
      )

    /** Abstract and claim 1 of an application (for re-encoding one without a vector). */
    const filedText = (appNum: string) =>
      Option.isSome(applicationRecords) && Option.isSome(claimRecords)
        ? Effect.gen(function* () {
            const [app, claims] = yield* Effect.all([applicationRecord(applicationRecords.value, appNum), readRecords(claimRecords.value, [appNum])], { concurrency: 2 })
            if (!app) return undefined
            return { abstract: app.abstract, first_claim: claims.get(appNum)?.find((c) => Number(c.claim_num) === 1)?.text ?? null }
          })
        : Effect.map(
            query(
              `SELECT a.title, a.abstract, (SELECT c.text FROM claims c WHERE c.app_num = a.app_num AND c.claim_num = 1 LIMIT 1) AS first_claim
               FROM applications a WHERE a.app_num = $1 LIMIT 1`,
              [appNum],
              ["applications", "claims"]
            ),
            ([row]) => row
          )

    const locate = (input: { readonly query?: string | undefined; readonly appNum?: string | undefined; readonly topK: number }) =>
      Effect.gen(function* () {
        yield* Effect.mapError(
          artifacts.requireTables("coordinates"),
          () => new MapCoordinatesUnavailable({ message: "the configured vector index stores no map coordinates" })
        )
        const landingOf = (neighbors: ReadonlyArray<{ x: number; y: number; z: number }>) =>
          neighbors.length ? Effect.succeed(rankWeightedCentroid(neighbors)) : Effect.fail(new NotFound({ message: "no match carried map coordinates" }))

        if (input.query !== undefined) {
          // The landing uses the top 8 hits even when topK asks for fewer neighbours.
          const hits = yield* nearest(yield* encodeText(input.query), Math.max(input.topK, 8), () => false)
          const shown = hits.slice(0, input.topK)
          return { landing: yield* landingOf(hits), neighbors: shown, count: shown.length, located_by: "query_text" as const, timestamp: now() }
        }
        const appNum = input.appNum!
        const exclude = (a: string) => a === appNum
        const stored = yield* storedVector(appNum)
        if (stored) {
          const [self] = yield* pointsWhere({ keys: [stored.key] })
          const neighbors = yield* nearest(stored.vector, Math.max(input.topK, 8), exclude)
          const landing = self ? { x: self.x, y: self.y, z: self.z } : yield* landingOf(neighbors)
          const shown = neighbors.slice(0, input.topK)
          return {
            landing,
            ...(self ? { self: basePoint(self) } : {}),
            neighbors: shown,
            count: shown.length,
            located_by: "stored_vector" as const,
            timestamp: now()
          }
        }
        const doc = yield* filedText(appNum)
        const text = doc ? indexedText({ abstract: doc.abstract as string | null, firstClaim: doc.first_claim as string | null }) : ""
        if (!text) return yield* Effect.fail(new NotFound({ message: `no abstract or claim text found for application ${appNum}` }))
        const neighbors = yield* nearest(yield* encodeText(text), Math.max(input.topK, 8), exclude)
        const shown = neighbors.slice(0, input.topK)
        return {
          landing: yield* landingOf(neighbors),
          neighbors: shown,
          count: shown.length,
          located_by: "re_encoded_text" as const,
          note: RE_ENCODED_NOTE,
          timestamp: now()
        }
      }).pipe(Effect.withSpan("PatentMapService.locate", { captureStackTrace: false }))

    // The scanned window (the first SCAN_BUDGET rows in stored order) is the same for every
    // request, so it is read once; only a successful read is kept.
    let window: { rows: ReadonlyArray<PointRow>; indexRows: number } | undefined
    const scanWindow = Effect.gen(function* () {
      if (window) return window
      const rows = yield* pointsWhere({ keyBelow: SCAN_BUDGET })
      const indexRows = Option.isSome(pointRecords)
        ? pointRecords.value.present()
        : Number((yield* query(`SELECT count(*)::BIGINT AS n FROM coordinates`, [], ["coordinates"]))[0].n)
      window = { rows, indexRows }
      return window
    })

    /** The points answer less its timestamp: the same for every request with the same input, in this version. */
    const pointsSample = (input: PointsQuery) =>
      Effect.gen(function* () {
        const { rows, indexRows } = yield* scanWindow
        const picked: ReturnType<typeof basePoint>[] = []
        for (const p of rows) {
          if (picked.length >= input.limit) break
          if (input.section !== undefined && p.section !== input.section) continue
          if (input.artUnit !== undefined && !(p.artUnit ?? "").startsWith(input.artUnit)) continue
          picked.push(basePoint(p))
        }
        // Truncated: the scan budget, not the end of the index, stopped the collection.
        const truncated = picked.length < input.limit && indexRows > SCAN_BUDGET
        return { points: picked, count: picked.length, truncated }
      }).pipe(Effect.withSpan("PatentMapService.points", { captureStackTrace: false }))

    const points = (input: PointsQuery) => Effect.map(pointsSample(input), (sample) => ({ ...sample, timestamp: now() }))

    const loadAtlas = atlasCache(artifacts)
    const whitespace = (input: { readonly limit: number; readonly section?: string | undefined; readonly minOpportunity: number }) =>
      Effect.gen(function* () {
        const voids = yield* loadAtlas
        const matching = voids.filter((v) => (input.section === undefined || v.section === input.section) && v.opportunity >= input.minOpportunity)
        const shown = [...matching].sort((a, b) => b.opportunity - a.opportunity).slice(0, input.limit)
        return { voids: shown, count: shown.length, total: matching.length, timestamp: now() }
      }).pipe(Effect.withSpan("PatentMapService.whitespace", { captureStackTrace: false }))

    return { neighborhood, citations, locate, points, pointsSample, whitespace } as const
  })
}) {}
