/**
 * Distributed ingest on BullMQ (real Redis at 127.0.0.1:6379) and a local S3 server: two worker
 * processes read corpus objects into partitions that equal, file for file and row for row, those
 * the local thread pool writes for the same requests; and a worker killed with SIGKILL in the
 * middle of an object loses nothing (the other worker reads it again, the result is the same).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Cause, ConfigProvider, Effect, Option } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { sqlString } from "../../core/artifacts/files.ts"
import { parseCorpusLocation } from "../../pipeline/corpus/CorpusStore.ts"
import { parseInQueue } from "../../pipeline/distributed/coordinator.ts"
import { buildQueueSettings } from "../../pipeline/distributed/settings.ts"
import { type ObjectPartition, PARTITION_INDEX, partitionKey, readerCodeVersion } from "../../pipeline/ingest/partition.ts"
import { mergePartitions } from "../../pipeline/ingest/merge.ts"
import { parseInWorkers } from "../../pipeline/ingest/pool.ts"
import type { ParseEvent, ParseRequest } from "../../pipeline/ingest/protocol.ts"
import { sha256OfFile } from "../../pipeline/stages/fingerprint.ts"
import { type LocalS3, startLocalS3, uploadFolder } from "../support/s3.ts"
import { REDIS, startWorker, stopWorkers, testQueues, waitForLine, type WorkerProcess } from "./worker-process.ts"

const STORE_BUCKET = "build-store"
const CORPUS_BUCKET = "corpus"
const sample = path.resolve("pipeline/sample-corpus")

/** A few objects of each kind of reader, and two that are skipped (the skip tallies are compared too). */
const OBJECTS = [
  "cpc/cpc-section-D_20250501.txt.gz",
  "design-codes/design-codes.tsv.gz",
  "form-paragraphs/form-paragraph-index.tsv",
  "mpep/mpep-0700.html.gz",
  "uspto/applications/go-uspto-v4-4-A1.xml.gz",
  "uspto/grants/go-uspto-v4-5-B2.xml.gz",
  "uspto/grants/patentsview-ipg080101.small.xml.gz"
]
/** The object the worker is killed on: big enough that its read is still under way when the kill lands. */
const KILLED_ON = "uspto/ppubs/ppubs-biblio.json.gz"

let tmp: string
let corpus: string
let s3: LocalS3
/** The real ingest code version: workers refuse jobs for other code. */
let codeVersion: string

beforeAll(async () => {
  codeVersion = await readerCodeVersion()
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "distributed-ingest-"))
  corpus = path.join(tmp, "corpus")
  for (const rel of [...OBJECTS, KILLED_ON]) {
    await fs.mkdir(path.dirname(path.join(corpus, rel)), { recursive: true })
    await fs.copyFile(path.join(sample, rel), path.join(corpus, rel))
  }
  await fs.writeFile(path.join(corpus, "uspto", "grants", "corrupt.xml.gz"), Buffer.from("this is not gzip at all"))
  const brokenDoc = `<?xml version="1.0" encoding="UTF-8"?>\n<us-patent-grant><us-bibliographic-data-grant><publication-reference><document-id><country>US</country><doc-number>0999</doc-number></document-id></publication-reference><unclosed></us-patent-grant>\n`
  await fs.writeFile(path.join(corpus, "uspto", "grants", "broken.xml.gz"), gzipSync(brokenDoc))
  s3 = await startLocalS3(STORE_BUCKET)
  await s3.client.send(new (await import("@aws-sdk/client-s3")).CreateBucketCommand({ Bucket: CORPUS_BUCKET }))
  await uploadFolder(s3, CORPUS_BUCKET, "sample", corpus)
  // The reference pool's threads and the coordinator read S3 settings from the environment, as a build does.
  process.env.S3_ENDPOINT = s3.endpoint
}, 120_000)

afterAll(async () => {
  await s3?.close()
  await fs.rm(tmp, { recursive: true, force: true })
})

const CORPUS_OBJECTS = [...OBJECTS, "uspto/grants/corrupt.xml.gz", "uspto/grants/broken.xml.gz"]

const requestsFor = async (location: string, root: string, objects: ReadonlyArray<string>, code = codeVersion): Promise<ParseRequest[]> =>
  Promise.all(
    objects.map(async (rel) => {
      const object = { path: rel, fingerprint: `sha256:${await sha256OfFile(path.join(corpus, rel))}` }
      return { location: parseCorpusLocation(location), ...object, codeVersion: code, dir: path.join(root, partitionKey(code, object)) }
    })
  )

/** What a run emitted: the Parsed partition per path, and the rows counted per path. */
const collector = () => {
  const parsed = new Map<string, ObjectPartition[]>()
  const rows = new Map<string, number>()
  const onEvent = (r: ParseRequest, ev: ParseEvent) => {
    if (ev._tag === "Rows") rows.set(r.path, (rows.get(r.path) ?? 0) + ev.n)
    else parsed.set(r.path, [...(parsed.get(r.path) ?? []), ev.partition])
  }
  return { parsed, rows, onEvent }
}

/** The local thread pool's partitions for the same objects: the reference. */
const readLocally = async (location: string, root: string, objects: ReadonlyArray<string>) => {
  const requests = await requestsFor(location, root, objects)
  const seen = collector()
  const staging = path.join(root, ".staging")
  await fs.mkdir(staging, { recursive: true })
  await Effect.runPromise(parseInWorkers(requests, 2, staging, seen.onEvent))
  return { requests, ...seen }
}

// ---- worker processes -------------------------------------------------------------------------

const workerEnv = (queue: string, lockMs: number) => ({
  BUILD_QUEUE: REDIS,
  BUILD_QUEUE_NAME: queue,
  S3_ENDPOINT: s3.endpoint,
  INGEST_WORKERS: "1",
  BUILD_LOCK_MS: String(lockMs),
  BUILD_STALLED_INTERVAL_MS: "1000"
})

/**
 * A worker process. The kill test wants a lapsed lock noticed within seconds rather than the
 * production half minute; the others keep a longer lock, so that a machine busy with other test
 * files never takes a live worker's job for a stalled one.
 */
const startQueueWorker = (name: string, queue: string, lockMs = 15_000): WorkerProcess => startWorker(name, workerEnv(queue, lockMs))

/** Paths a worker took (it logs `took <path> key=…` as it starts each job). */
const tookPaths = (w: WorkerProcess) => w.lines.flatMap((l) => /took (\S+) key=/.exec(l)?.[1] ?? [])

const queues = testQueues("distributed-test")
const newQueue = queues.next

afterEach(async () => {
  await stopWorkers()
  await queues.removeAll()
})

const settingsFor = (queue: string) =>
  Effect.runPromise(
    buildQueueSettings.pipe(
      Effect.map(Option.getOrThrow),
      Effect.withConfigProvider(
        ConfigProvider.fromJson({
          BUILD_QUEUE: REDIS,
          BUILD_QUEUE_NAME: queue,
          BUILD_STORE: `s3://${STORE_BUCKET}/builds/${queue}`,
          S3_ENDPOINT: s3.endpoint,
          BUILD_RECONCILE_MS: "2000"
        })
      )
    )
  )

const readInQueue = async (queue: string, location: string, root: string, objects: ReadonlyArray<string>) => {
  const requests = await requestsFor(location, root, objects)
  const seen = collector()
  await Effect.runPromise(parseInQueue(requests, seen.onEvent, await settingsFor(queue)))
  return { requests, ...seen }
}

// ---- comparing partitions ---------------------------------------------------------------------

/** Same files, same object.json, and the same rows in each Parquet file (DuckDB, both directions, order by _seq kept). */
const expectSamePartitions = async (
  local: Awaited<ReturnType<typeof readLocally>>,
  remote: Awaited<ReturnType<typeof readInQueue>>
) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    for (const [i, r] of remote.requests.entries()) {
      const l = local.requests[i]
      expect(r.path).toBe(l.path)
      expect(remote.parsed.get(r.path)).toHaveLength(1)
      expect(remote.parsed.get(r.path)).toEqual(local.parsed.get(l.path))
      expect(remote.rows.get(r.path) ?? 0).toBe(local.rows.get(l.path) ?? 0)
      const files = (await fs.readdir(r.dir)).sort()
      expect(files).toEqual((await fs.readdir(l.dir)).sort())
      expect(JSON.parse(await fs.readFile(path.join(r.dir, PARTITION_INDEX), "utf8"))).toEqual(JSON.parse(await fs.readFile(path.join(l.dir, PARTITION_INDEX), "utf8")))
      for (const f of files.filter((f) => f.endsWith(".parquet"))) {
        const a = `read_parquet(${sqlString(path.join(l.dir, f))})`
        const b = `read_parquet(${sqlString(path.join(r.dir, f))})`
        const [[countA, countB, onlyA, onlyB]] = (
          await conn.runAndReadAll(
            `SELECT (SELECT count(*) FROM ${a}), (SELECT count(*) FROM ${b}),
                    (SELECT count(*) FROM (SELECT * FROM ${a} EXCEPT ALL SELECT * FROM ${b})),
                    (SELECT count(*) FROM (SELECT * FROM ${b} EXCEPT ALL SELECT * FROM ${a}))`
          )
        ).getRows()
        expect({ file: `${r.path}/${f}`, countB, onlyA, onlyB }).toEqual({ file: `${r.path}/${f}`, countB: countA, onlyA: 0n, onlyB: 0n })
      }
    }
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** The published tables the ingest stage's merge makes of a run's partitions (objects in corpus order). */
const mergedTables = async (run: Awaited<ReturnType<typeof readLocally>>, workDir: string) => {
  const inCorpusOrder = [...run.requests].sort((x, y) => (x.path < y.path ? -1 : 1))
  const merged = await mergePartitions(
    workDir,
    inCorpusOrder.map((r, doc) => ({ path: r.path, doc, dir: r.dir, rows: run.parsed.get(r.path)![0].rows }))
  )
  return { rowCounts: merged.rowCounts, contentHashes: merged.contentHashes }
}

describe("parseInQueue", () => {
  it("two worker processes read the corpus (on S3) into the partitions the local thread pool writes", async () => {
    const queue = newQueue("equal")
    const location = `s3://${CORPUS_BUCKET}/sample`
    const local = await readLocally(location, path.join(tmp, "equal-local"), CORPUS_OBJECTS)
    const a = startQueueWorker("worker-a", queue)
    const b = startQueueWorker("worker-b", queue)
    await Promise.all([waitForLine(a, /ready on queue/), waitForLine(b, /ready on queue/)])

    const remote = await readInQueue(queue, location, path.join(tmp, "equal-remote"), CORPUS_OBJECTS)

    expect([...local.parsed.values()].flat().reduce((n, p) => n + p.skipped.count, 0)).toBeGreaterThanOrEqual(2)
    await expectSamePartitions(local, remote)
    // …and so the merge publishes the same tables as a single-machine build.
    const tables = await mergedTables(remote, path.join(tmp, "equal-remote-merged"))
    expect(tables.rowCounts.applications).toBeGreaterThan(10)
    expect(tables).toEqual(await mergedTables(local, path.join(tmp, "equal-local-merged")))
    // Both workers took a share, and no object was read twice.
    expect(tookPaths(a).length).toBeGreaterThan(0)
    expect(tookPaths(b).length).toBeGreaterThan(0)
    expect([...tookPaths(a), ...tookPaths(b)].sort()).toEqual([...CORPUS_OBJECTS].sort())

    // Enqueuing the same objects again reads nothing: the partitions are in the store.
    const again = await readInQueue(queue, location, path.join(tmp, "equal-again"), CORPUS_OBJECTS)
    await expectSamePartitions(local, again)
    expect([...a.lines, ...b.lines].filter((l) => /found stored/.test(l))).toHaveLength(CORPUS_OBJECTS.length)

    // SIGTERM: each worker closes gracefully and exits 0.
    a.child.kill("SIGTERM")
    b.child.kill("SIGTERM")
    expect(await a.exited).toBe(0)
    expect(await b.exited).toBe(0)
  }, 240_000)

  it("loses nothing when a worker is killed (SIGKILL) in the middle of an object: the other worker reads it again", async () => {
    const queue = newQueue("killed")
    const objects = [KILLED_ON, ...OBJECTS.slice(0, 3)]
    const local = await readLocally(corpus, path.join(tmp, "killed-local"), objects)
    const a = startQueueWorker("worker-a", queue, 5000)
    const b = startQueueWorker("worker-b", queue, 5000)
    await Promise.all([waitForLine(a, /ready on queue/), waitForLine(b, /ready on queue/)])

    const build = readInQueue(queue, corpus, path.join(tmp, "killed-remote"), objects)
    // Whichever worker takes the big object is killed as soon as it says so.
    const killedOn = new RegExp(`took ${KILLED_ON.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} key=`)
    const victim = await Promise.race([waitForLine(a, killedOn).then(() => a), waitForLine(b, killedOn).then(() => b)])
    victim.child.kill("SIGKILL")
    const survivor = victim === a ? b : a
    const remote = await build

    await expectSamePartitions(local, remote)
    expect(victim.lines.some((l) => /stored uspto\/ppubs/.test(l))).toBe(false)
    expect(tookPaths(survivor)).toContain(KILLED_ON)
    expect(survivor.lines.some((l) => new RegExp(`stored ${KILLED_ON.replace(/[./]/g, "\\$&")} `).test(l))).toBe(true)
  }, 240_000)

  it("fails the build naming the object when its job fails after all its attempts", async () => {
    const queue = newQueue("failing")
    const w = startQueueWorker("worker", queue)
    await waitForLine(w, /ready on queue/)
    const requests = await requestsFor(corpus, path.join(tmp, "failing"), [OBJECTS[1]])
    // A store bucket that does not exist: every attempt's upload fails.
    const settings = { ...(await settingsFor(queue)), store: { bucket: "no-such-bucket", prefix: "builds/", display: "s3://no-such-bucket/builds" }, attempts: 2 }
    const exit = await Effect.runPromiseExit(parseInQueue(requests, () => {}, settings))
    expect(exit._tag).toBe("Failure")
    const error = exit._tag === "Failure" ? Cause.squash(exit.cause) : undefined
    expect(error).toMatchObject({ _tag: "DistributedReadFailed", path: OBJECTS[1] })
    expect(String((error as Error).message)).toMatch(/^distributed ingest failed on design-codes\/design-codes\.tsv\.gz: partition \w+: \w+ failed: The specified bucket does not exist/)
    expect(tookPaths(w)).toEqual([OBJECTS[1], OBJECTS[1]])

    // A build of other ingest code than the worker runs fails at once (no retry), saying so.
    const other = await requestsFor(corpus, path.join(tmp, "other-code"), [OBJECTS[2]], "0123456789abcdef")
    const mismatch = await Effect.runPromiseExit(parseInQueue(other, () => {}, await settingsFor(queue)))
    const mismatchError = mismatch._tag === "Failure" ? Cause.squash(mismatch.cause) : undefined
    expect(mismatchError).toMatchObject({ _tag: "DistributedReadFailed", path: OBJECTS[2] })
    expect(String((mismatchError as Error).message)).toMatch(new RegExp(`runs ingest code ${codeVersion}, the build reading .* needs 0123456789abcdef`))
    expect(tookPaths(w).filter((p) => p === OBJECTS[2])).toHaveLength(1)
  }, 120_000)
})
