/**
 * One build at a time per artifacts folder: a lock file holding the builder's pid. A lock left
 * by a process that no longer runs (a crashed build) is taken over.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

export const withBuildLock = async <A>(root: string, f: () => Promise<A>, onWait?: (holder: number) => void): Promise<A> => {
  const file = path.join(root, ".build.lock")
  for (;;) {
    try {
      await fs.writeFile(file, String(process.pid), { flag: "wx" })
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      const holder = Number(await fs.readFile(file, "utf8").catch(() => "0"))
      if (!holder || !alive(holder)) {
        await fs.rm(file, { force: true })
        continue
      }
      onWait?.(holder)
      await new Promise((r) => setTimeout(r, 500))
    }
  }
  try {
    return await f()
  } finally {
    await fs.rm(file, { force: true })
  }
}
