/**
 * CorpusStore sees the same corpus in a folder and in an S3 bucket: same paths, same sizes,
 * same bytes when streamed (gunzipped for .gz).
 */
import { Effect } from "effect"
import { createHash } from "node:crypto"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CorpusStore, parseCorpusLocation } from "../../pipeline/corpus/CorpusStore.ts"
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
})
