/**
 * CorpusStore sees the same corpus in a folder and in an S3 bucket: same paths, same sizes,
 * same bytes when streamed (gunzipped for .gz).
 */
import { Effect } from "effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CorpusStore, parseCorpusLocation } from "../../pipeline/corpus/CorpusStore.ts"
import { openFingerprintCache } from "../../pipeline/corpus/fingerprint-cache.ts"
import { startLocalS3, uploadFolder, type LocalS3 } from "../support/s3.ts"

const sample = path.resolve("pipeline/sample-corpus")
let s3: LocalS3

beforeAll(async () => {
  s3 = await startLocalS3("corpus")
  process.env.S3_ENDPOINT = s3.endpoint
  await uploadFolder(s3, "corpus", "sample/v1", sample)
})
afterAll(() => s3?.close())

const withStore = <A>(f: (store: CorpusStore) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.flatMap(CorpusStore, f).pipe(Effect.provide(CorpusStore.Default)))

const digest = async (it: AsyncIterable<Uint8Array>) => {
  const h = createHash("sha256")
  for await (const c of it) h.update(c)
  return h.digest("hex")
}

describe("CorpusStore", () => {
  it("lists the same files with the same sizes from a folder and from S3", async () => {
    const local = await withStore((s) => s.list(parseCorpusLocation(sample)))
    const remote = await withStore((s) => s.list(parseCorpusLocation("s3://corpus/sample/v1")))
    expect(local.length).toBeGreaterThan(100)
    expect(remote.map((f) => [f.path, f.size])).toEqual(local.map((f) => [f.path, f.size]))
    expect(local.some((f) => f.path === "README.md")).toBe(false)
  })

  it("streams identical (gunzipped) bytes from both", async () => {
    for (const rel of ["form-paragraphs/form-paragraph-index.tsv", "uspto/grants/go-uspto-v4-5-B2.xml.gz"]) {
      const [a, b] = await withStore((s) =>
        Effect.promise(() =>
          Promise.all([
            digest(s.file(parseCorpusLocation(sample), rel).open()),
            digest(s.file(parseCorpusLocation("s3://corpus/sample/v1"), rel).open())
          ])
        )
      )
      expect(b).toBe(a)
    }
  })

  it("names an unreachable bucket in its error", async () => {
    await expect(withStore((s) => s.list(parseCorpusLocation("s3://no-such-bucket/x")))).rejects.toThrow(/s3:\/\/no-such-bucket\/x/)
  })

  it("hashes a local file again only when it changed, with the fingerprints kept between builds", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "corpus-fingerprints-"))
    try {
      const corpus = path.join(dir, "corpus")
      const cache = path.join(dir, "artifacts", ".corpus-fingerprints.json")
      await fs.mkdir(path.join(corpus, "uspto"), { recursive: true })
      await fs.writeFile(path.join(corpus, "uspto", "a.xml"), "<a>first</a>")
      await fs.writeFile(path.join(corpus, "uspto", "b.xml"), "<b>kept</b>")
      // As a build lists its corpus: the fingerprints kept in the artifacts root, saved after.
      const listFrom = async (folder: string) => {
        const fingerprints = await openFingerprintCache(cache, folder)
        const files = await withStore((s) => s.list(parseCorpusLocation(folder), fingerprints.fingerprintOf))
        await fingerprints.save()
        return files
      }
      const listed = async () => Object.fromEntries((await listFrom(corpus)).map((f) => [f.path, f.fingerprint]))
      const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`
      expect(await listed()).toEqual({ "uspto/a.xml": sha("<a>first</a>"), "uspto/b.xml": sha("<b>kept</b>") })
      // What a file with an unchanged stat gets is the recorded fingerprint, not a new hash: shown by planting one.
      const stored = JSON.parse(await fs.readFile(cache, "utf8"))
      stored.files["uspto/b.xml"][1] = "sha256:planted"
      await fs.writeFile(cache, JSON.stringify(stored))
      expect((await listed())["uspto/b.xml"]).toBe("sha256:planted")
      // Rewritten with bytes of the same length, and its modification time put back: the change time still moved.
      const before = await fs.stat(path.join(corpus, "uspto", "a.xml"))
      await new Promise((r) => setTimeout(r, 20))
      await fs.writeFile(path.join(corpus, "uspto", "a.xml"), "<a>again</a>")
      await fs.utimes(path.join(corpus, "uspto", "a.xml"), before.atime, before.mtime)
      expect((await listed())["uspto/a.xml"]).toBe(sha("<a>again</a>"))
      // A file gone drops out of the cache; another corpus folder does not use it.
      await fs.rm(path.join(corpus, "uspto", "a.xml"))
      expect(Object.keys(await listed())).toEqual(["uspto/b.xml"])
      expect(Object.keys(JSON.parse(await fs.readFile(cache, "utf8")).files)).toEqual(["uspto/b.xml"])
      const other = path.join(dir, "other")
      await fs.cp(corpus, other, { recursive: true })
      expect(await listFrom(other)).toEqual([{ path: "uspto/b.xml", size: 11, fingerprint: sha("<b>kept</b>") }])
    } finally {
      await fs.rm(dir, { recursive: true, force: true })
    }
  })
})
