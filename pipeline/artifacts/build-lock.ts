/**
 * One build at a time per artifacts folder: a lock file holding the builder's pid, held as a
 * scoped resource (released when the build's scope closes, whether it succeeded, failed or was
 * interrupted). A lock left by a process that no longer runs (a crashed build) is taken over.
 */
import { Data, Effect, Schedule } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"

export class BuildLockError extends Data.TaggedError("BuildLockError")<{ readonly message: string }> {}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Held by another live process: try again later. */
class Held extends Data.TaggedError("Held")<{ readonly holder: number }> {}

const tryTake = (file: string) =>
  Effect.tryPromise({
    try: async () => {
      try {
        await fs.writeFile(file, String(process.pid), { flag: "wx" })
        return
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      }
      const holder = Number(await fs.readFile(file, "utf8").catch(() => "0"))
      if (holder && alive(holder)) throw new Held({ holder })
      // A crashed build's lock: remove it and take the lock in the same attempt.
      await fs.rm(file, { force: true })
      await fs.writeFile(file, String(process.pid), { flag: "wx" })
    },
    catch: (e) => (e instanceof Held ? e : new BuildLockError({ message: `cannot take the build lock ${file}: ${e instanceof Error ? e.message : String(e)}` }))
  })

/** Takes the build lock of `root` for the current scope, waiting (every 500 ms) while another build holds it. */
export const buildLock = (root: string, onWait?: (holder: number) => void) => {
  const file = path.join(root, ".build.lock")
  const take = tryTake(file).pipe(
    Effect.tapError((e) => (e._tag === "Held" ? Effect.sync(() => onWait?.(e.holder)) : Effect.void)),
    Effect.retry({ while: (e) => e._tag === "Held", schedule: Schedule.spaced("500 millis") }),
    Effect.catchTag("Held", (e) => Effect.fail(new BuildLockError({ message: `the build lock is held by process ${e.holder}` })))
  )
  return Effect.acquireRelease(take, () => Effect.promise(() => fs.rm(file, { force: true })))
}
