/**
 * A replica of versions published to S3 (ARTIFACTS_URL=s3://bucket/prefix): before each look at
 * ARTIFACTS_DIR, the bucket's `current` pointer is read; a version not held locally is downloaded
 * beside the local ones, verified file by file, and only then made the local `current`, which the
 * switchboard follows like any publication. A failed download leaves what is served untouched and
 * is retried a minute later.
 */
import * as path from "node:path"
import { fetchVersion, publishedCurrent } from "../../core/artifacts/published.ts"
import { makeS3Client, type S3Location, type S3Settings } from "../../core/artifacts/s3.ts"
import { currentVersionDir } from "../../core/artifacts/versions.ts"

const RETRY_FAILED_MS = 60_000

export interface Replica {
  /** Brings the local `current` to the bucket's; never rejects (failures are logged). */
  readonly sync: () => Promise<void>
}

export const makeReplica = (o: {
  readonly from: S3Location
  readonly s3: S3Settings
  /** Local folder of versions; its `current` link is what ARTIFACTS_DIR names. */
  readonly root: string
  readonly log: (event: Record<string, unknown>) => void
}): Replica => {
  const client = makeS3Client(o.s3)
  let failed: { readonly version: string; readonly at: number } | undefined
  let pointerProblem: string | undefined
  return {
    sync: async () => {
      const version = await publishedCurrent(client, o.from).then(
        (v) => {
          pointerProblem = undefined
          return v
        },
        (e: Error) => {
          // Logged once per kind of problem: an unreachable bucket must not flood the log every poll.
          if (pointerProblem !== e.message) o.log({ level: "WARN", message: "the published current pointer cannot be read", from: o.from.display, reason: e.message })
          pointerProblem = e.message
          return undefined
        }
      )
      if (!version) return
      const local = await currentVersionDir(o.root)
      if (local && path.basename(local) === version) return
      if (failed?.version === version && Date.now() - failed.at < RETRY_FAILED_MS) return
      const started = Date.now()
      await fetchVersion(client, o.from, version, o.root).then(
        (r) => {
          failed = undefined
          o.log({ level: "INFO", message: "downloaded and verified a published version", ...r, tookMs: Date.now() - started })
        },
        (e: Error) => {
          failed = { version, at: Date.now() }
          o.log({ level: "WARN", message: "a published version was not taken (not served)", version, reason: e.message })
        }
      )
    }
  }
}
