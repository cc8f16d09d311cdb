/**
 * `make rollback [ARTIFACTS=dir]`: points `current` back at the previous complete version. A
 * running `make serve` follows within its poll interval (VERSION_POLL_SECONDS), or at once on SIGHUP.
 */
import { parseArgs } from "node:util"
import { RollbackRefused, rollbackCurrent } from "../core/artifacts/versions.ts"

const { values } = parseArgs({ options: { artifacts: { type: "string", default: process.env.ARTIFACTS || "artifacts" } } })

rollbackCurrent(values.artifacts!).then(
  ({ from, to }) => process.stdout.write(`current: ${from} → ${to}\n`),
  (e: Error) => {
    process.stderr.write(`rollback ${e instanceof RollbackRefused ? "refused" : "failed"}: ${e.message}\n`)
    process.exit(1)
  }
)
