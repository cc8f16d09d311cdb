/**
 * The documents stage: every application's title, abstract and first claim stored for reads by
 * key (core/search/stored.ts), so a result page is hydrated without scanning Parquet.
 *
 * Outputs (documents/)
 *   stored.bin           UTF-8 JSON arrays [title, abstract, first_claim], concatenated
 *   stored.delta.bin     a night's documents beside a stored.bin linked from the version it replaces
 *   stored_docs.parquet  app_num, offset, length
 *   .fingerprints/       per-application fingerprints (the stage's own state, for nightly builds)
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Effect } from "effect"
import { createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { encodeStoredDocument, STORED_DELTA_FILE, STORED_DIR, STORED_FILE, STORED_TABLE } from "../../core/search/stored.ts"
import { linkFile } from "../../core/artifacts/files.ts"
import { changedKeysSql, changedSince, ingestChanges, rowsCoverListed, withChangedRows } from "../ingest/changes.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { carriedFingerprintsSql, changedKeys, type EarlierListing, mergeRecords, SERVING_DELTA_LIMIT, servingDeltaLimit, type TakeOverWriter, withLinkedOutputs } from "../stages/take-over.ts"
import { sqlString, withTables } from "../stages/tables.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf, stageMemoryLimit } from "../stages/duckdb.ts"

const write = (out: NodeJS.WritableStream, buf: Buffer) =>
  new Promise<void>((resolve) => (out.write(buf) ? resolve() : out.once("drain", () => resolve())))

/** What each application's stored document is made of (one row per application). */
const DOCUMENT_ROWS = `
  SELECT a.app_num AS k, a.title, a.abstract, c.text AS first_claim
  FROM applications a LEFT JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1`

/** The tables DOCUMENT_ROWS reads, both by application. */
const DOCUMENT_TABLES = ["applications", "claims"]

/** Per-application fingerprints of the stored documents: the stage's own state, for the next night's build. */
const FINGERPRINTS = `${STORED_DIR}/.fingerprints/${STORED_TABLE}.parquet`

/** Per-application fingerprints (k, h) of the documents' rows, optionally only for the keys in table `only`. */
const fingerprintsOf = (only?: string) =>
  `SELECT s.k, hash(list(hash(s) ORDER BY hash(s))) AS h FROM (${DOCUMENT_ROWS}) AS s${only ? ` WHERE s.k IN (SELECT k FROM ${only})` : ""} GROUP BY s.k`

/** The documents of `rows` (k, title, abstract, first_claim), serialised, in application order. */
async function* documentsOf(src: DuckDBConnection, only: string | undefined, tick: (n: number) => void) {
  const result = await src.stream(`SELECT * FROM (${DOCUMENT_ROWS}) AS s${only ? ` WHERE s.k IN (SELECT k FROM ${only})` : ""} ORDER BY s.k`)
  for await (const rows of result.yieldRowsJs()) {
    for (const [key, title, abstract, firstClaim] of rows as [string, string | null, string | null, string | null][]) {
      yield { key, bytes: encodeStoredDocument({ title, abstract, firstClaim }) }
    }
    tick(rows.length)
  }
}

/** An earlier version's stored documents: their files and fingerprints, when it has them. */
interface EarlierDocuments {
  readonly base: string
  readonly baseSize: number
  /** stored.delta.bin, when the earlier version has one. */
  readonly delta?: string
  readonly index: string
  readonly fingerprints: string
}

const earlierDocuments = async (dir: string): Promise<EarlierDocuments | undefined> => {
  const files = { base: path.join(dir, STORED_DIR, STORED_FILE), index: path.join(dir, STORED_DIR, `${STORED_TABLE}.parquet`), fingerprints: path.join(dir, FINGERPRINTS) }
  if (!(await Promise.all(Object.values(files).map((f) => fs.access(f).then(() => true, () => false)))).every(Boolean)) return undefined
  const delta = path.join(dir, STORED_DIR, STORED_DELTA_FILE)
  const hasDelta = await fs.access(delta).then(() => true, () => false)
  return { ...files, baseSize: (await fs.stat(files.base)).size, ...(hasDelta ? { delta } : {}) }
}

/**
 * The documents an index lists (a stored_docs file, or the build's own index table), in
 * application order, each in its file: the base (0) or, at offsets past the base's size, the delta (1).
 * Streamed (ten million offsets need not be held at once) on a database of its own: the fresh
 * documents stream from the build's connection at the same time. It has a quarter of the stage's
 * memory and spills into the version being built, never into the earlier one.
 */
const documentListing = (workDir: string, files: { readonly base: string; readonly baseSize: number; readonly delta?: string }, index: string): EarlierListing => ({
  data: files.delta ? [files.base, files.delta] : [files.base],
  records: async function* () {
    const spillDir = spillDirOf(workDir, "documents-earlier")
    const db = await openStageDatabase({ spillDir, memoryLimit: stageMemoryLimit(1 / 4) })
    const conn = await db.connect()
    try {
      const result = await conn.stream(`SELECT app_num, "offset", length FROM read_parquet(${sqlString(index)}) ORDER BY app_num`)
      for await (const rows of result.yieldRowsJs()) {
        for (const [app, offset, length] of rows as [string, bigint, number][]) {
          const at = Number(offset)
          const inDelta = files.delta !== undefined && at >= files.baseSize
          const from = inDelta ? at - files.baseSize : at
          yield { key: Buffer.from(app, "utf8"), from, to: from + length, file: inDelta ? 1 : 0 }
        }
      }
    } finally {
      conn.closeSync()
      await closeStageDatabase(db, spillDir)
    }
  }
})

/**
 * Writes documents/ under `workDir` from its tables/ (also used to add the folder to a version
 * built before this stage). With `earlierDir`, the version a nightly build replaces, the documents
 * of unchanged applications are copied from it and only new and changed ones are read and
 * serialised (pipeline/stages/take-over.ts); the files are the same either way. Which applications
 * those are, ingest's change lists say (`changesDir`, pipeline/ingest/changes.ts) when they were
 * made against that version; otherwise every application's rows are fingerprinted and compared.
 */
export const writeStoredDocuments: TakeOverWriter = async (workDir, tick = () => {}, earlierDir, changesDir, deltaLimit = SERVING_DELTA_LIMIT) => {
  const dir = path.join(workDir, STORED_DIR)
  await fs.rm(dir, { recursive: true, force: true })
  await fs.mkdir(path.join(dir, path.dirname(path.relative(STORED_DIR, FINGERPRINTS))), { recursive: true })
  const earlier = earlierDir ? await earlierDocuments(earlierDir) : undefined
  // Ingest's change lists name the applications whose documents may differ: only those are read.
  const changed = earlier && changesDir ? await changedSince(changesDir, earlierDir, DOCUMENT_TABLES) : undefined
  // With the lists, the earlier stored.bin is linked and only a delta is written (core/search/stored.ts).
  const delta = earlier && changed && deltaLimit > 0 ? earlier : undefined
  // The index of what is written (three small columns per application): a quarter of the stage's memory.
  const spillDir = spillDirOf(workDir, "documents")
  const staging = await openStageDatabase({ spillDir, memoryLimit: stageMemoryLimit(1 / 4) })
  const conn = await staging.connect()
  const written = path.join(dir, delta ? STORED_DELTA_FILE : STORED_FILE)
  const out = createWriteStream(written)
  let stored = 0
  const notes: string[] = []
  let indexTable = "d"
  const outputs = [`${STORED_DIR}/${STORED_FILE}`, `${STORED_DIR}/${STORED_TABLE}.parquet`, FINGERPRINTS]
  const linked: string[] = []
  try {
    await conn.run(`CREATE TABLE d (app_num VARCHAR, "offset" BIGINT, length INTEGER)`)
    const index = await conn.createAppender("d")
    const listed = (appNum: string, offset: number, length: number) => {
      index.appendVarchar(appNum)
      index.appendBigInt(BigInt(offset))
      index.appendInteger(length)
      index.endRow()
      stored++
    }
    // A delta's offsets follow the base's bytes.
    const origin = delta ? delta.baseSize : 0
    let offset = 0
    const writer = {
      addBytes: async (appNum: string, bytes: Buffer) => {
        await write(out, bytes)
        listed(appNum, origin + offset, bytes.length)
        offset += bytes.length
      },
      // A document in the linked base stays where it is: only its index row is written.
      keep: delta ? (appNum: string, span: { readonly from: number; readonly to: number; readonly file: number }) => span.file === 0 && (listed(appNum, span.from, span.to - span.from), true) : undefined
    }
    await withTables(workDir, async (src) => {
      if (earlier && changed) {
        await src.run(`CREATE TEMP TABLE _fresh AS ${changedKeysSql(changed)}`)
        const keys = new Set(((await src.runAndReadAll(`SELECT k FROM _fresh`)).getRows() as [string][]).map(([k]) => k))
        const merge = async () => {
          await src.run(`CREATE TEMP TABLE _fingerprints AS ${carriedFingerprintsSql(earlier.fingerprints, "_fresh", fingerprintsOf("_fresh"))}`)
          return mergeRecords(documentListing(workDir, earlier, earlier.index), keys, documentsOf(src, "_fresh", tick), writer)
        }
        // From ingest's changed rows where they hold every listed application's rows: the tables are not scanned.
        const takenOver = (await rowsCoverListed(src, changed, DOCUMENT_TABLES)) ? await withChangedRows(src, changed.rows, merge) : await merge()
        notes.push(`${takenOver} documents taken over from the earlier version, ${stored - takenOver} written anew, ${keys.size} applications listed as changed by ingest`)
      } else if (earlier) {
        await src.run(`CREATE TEMP TABLE _fingerprints AS ${fingerprintsOf()}`)
        const dropped = await changedKeys(src, earlier.fingerprints, "_fingerprints", "_fresh")
        const takenOver = await mergeRecords(documentListing(workDir, earlier, earlier.index), dropped, documentsOf(src, "_fresh", tick), writer)
        notes.push(`${takenOver} documents taken over from the earlier version, ${stored - takenOver} written anew, ${dropped.size} earlier ones replaced or removed`)
      } else {
        await src.run(`CREATE TEMP TABLE _fingerprints AS ${fingerprintsOf()}`)
        for await (const d of documentsOf(src, undefined, tick)) await writer.addBytes(d.key, d.bytes)
      }
      await src.run(`COPY (SELECT k, h FROM _fingerprints ORDER BY k) TO ${sqlString(path.join(workDir, FINGERPRINTS))} (FORMAT parquet, COMPRESSION zstd)`)
    }, { memoryLimit: stageMemoryLimit(1 / 2) })
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())))
    index.flushSync()
    index.closeSync()
    if (delta && offset <= deltaLimit * delta.baseSize) {
      await linkFile(delta.base, path.join(dir, STORED_FILE))
      outputs.push(`${STORED_DIR}/${STORED_DELTA_FILE}`)
      linked.push(`${STORED_DIR}/${STORED_FILE}`)
      notes.push(`stored.bin linked from the earlier version, a delta of ${offset} bytes written`)
    } else if (delta) {
      // The delta outgrew its share of the base: one whole stored.bin again, the base and delta merged.
      indexTable = await compactDocuments(staging, workDir, { base: delta.base, baseSize: delta.baseSize, delta: written })
      await fs.rm(written)
      notes.push(`stored.bin written whole, the earlier one and this night's delta of ${offset} bytes merged (over ${deltaLimit} of the base's ${delta.baseSize})`)
    }
    await conn.run(`COPY (SELECT * FROM ${indexTable} ORDER BY app_num) TO ${sqlString(path.join(dir, `${STORED_TABLE}.parquet`))} (FORMAT parquet, COMPRESSION zstd)`)
  } finally {
    out.destroy()
    conn.closeSync()
    await closeStageDatabase(staging, spillDir)
  }
  return { outputs, rowCounts: { [STORED_TABLE]: stored }, notes, linked }
}

/**
 * Writes stored.bin whole from a linked base and this build's delta, as listed by the build's index
 * table `d`, in application order; returns the table of the new index (`d_whole`).
 */
const compactDocuments = async (staging: Awaited<ReturnType<typeof openStageDatabase>>, workDir: string, files: { readonly base: string; readonly baseSize: number; readonly delta: string }) => {
  const indexFile = path.join(workDir, STORED_DIR, ".delta-index.parquet")
  const conn = await staging.connect()
  const out = createWriteStream(path.join(workDir, STORED_DIR, STORED_FILE))
  try {
    await conn.run(`COPY (SELECT * FROM d) TO ${sqlString(indexFile)} (FORMAT parquet)`)
    await conn.run(`CREATE TABLE d_whole (app_num VARCHAR, "offset" BIGINT, length INTEGER)`)
    const index = await conn.createAppender("d_whole")
    let offset = 0
    await mergeRecords(documentListing(workDir, files, indexFile), new Set(), (async function* () {})(), {
      addBytes: async (appNum: string, bytes: Buffer) => {
        await write(out, bytes)
        index.appendVarchar(appNum)
        index.appendBigInt(BigInt(offset))
        index.appendInteger(bytes.length)
        index.endRow()
        offset += bytes.length
      }
    })
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())))
    index.flushSync()
    index.closeSync()
  } finally {
    out.destroy()
    conn.closeSync()
    await fs.rm(indexFile, { force: true })
  }
  return "d_whole"
}

export const documentsStage: Stage = {
  name: "documents",
  sources: ["pipeline/documents", "core/search/stored.ts"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.flatMap(servingDeltaLimit, (deltaLimit) =>
      stagePromise(async () => {
        // Documents are taken over only from an earlier version whose documents stage ran the same code.
        const earlier = ctx.previous && ctx.previous.record.codeVersion === ctx.codeVersion ? ctx.previous : undefined
        // A linked stored.bin keeps the hash recorded for it there.
        return withLinkedOutputs(await writeStoredDocuments(ctx.workDir, (n) => ctx.progress.tick(n, "documents stored"), earlier?.dir, ctx.outputOf(ingestChanges), deltaLimit), earlier?.record)
      })
    )
}
