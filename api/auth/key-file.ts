/**
 * STATE_DIR/keys.json: the key records (salted hashes, never keys). Written only by the key CLI
 * and demo-key issuing, always whole: temp file, fsync, rename, so a reader (the running server)
 * sees the old or the new store, never half of one. Writers serialise through a lock directory.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Schema } from "effect"

export const KeyRecord = Schema.Struct({
  handle: Schema.String,
  /** Shared by a key and the keys rotated from it: quotas follow the lineage, not the string. */
  lineage: Schema.String,
  name: Schema.String,
  salt: Schema.String,
  hash: Schema.String,
  test: Schema.Boolean,
  status: Schema.Literal("active", "suspended", "revoked"),
  createdAt: Schema.String,
  expiresAt: Schema.String,
  daily: Schema.Number,
  monthly: Schema.Number,
  /** null: any address. */
  allowIps: Schema.NullOr(Schema.Array(Schema.String)),
  /** null: every permission. */
  permissions: Schema.NullOr(Schema.Array(Schema.String)),
  rotatedTo: Schema.optional(Schema.String)
})
export type KeyRecord = typeof KeyRecord.Type

export const KeyFile = Schema.Struct({ version: Schema.Literal(1), keys: Schema.Array(KeyRecord) })
export type KeyFile = typeof KeyFile.Type

export const keyFilePath = (stateDir: string) => path.join(stateDir, "keys.json")

const decode = Schema.decodeUnknownSync(KeyFile)

/** Reads the store; a missing file is an empty store, a corrupt one throws. */
export const readKeyFile = async (stateDir: string): Promise<KeyFile> => {
  let text: string
  try {
    text = await fs.readFile(keyFilePath(stateDir), "utf8")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, keys: [] }
    throw e
  }
  return decode(JSON.parse(text))
}

const writeKeyFile = async (stateDir: string, file: KeyFile) => {
  await fs.mkdir(stateDir, { recursive: true })
  const target = keyFilePath(stateDir)
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`
  const handle = await fs.open(temp, "w", 0o600)
  try {
    await handle.writeFile(JSON.stringify(file, null, 2) + "\n")
    await handle.sync()
  } finally {
    await handle.close()
  }
  await fs.rename(temp, target)
  const dir = await fs.open(stateDir, "r")
  await dir.sync().finally(() => dir.close())
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Read-modify-write under an exclusive lock (mkdir is atomic); a lock older than 30 s is stale. */
export const updateKeyFile = async <A>(stateDir: string, change: (file: KeyFile) => { file: KeyFile; result: A }): Promise<A> => {
  await fs.mkdir(stateDir, { recursive: true })
  const lock = path.join(stateDir, "keys.lock")
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.mkdir(lock)
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      const age = await fs.stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0)
      if (age > 30_000) await fs.rm(lock, { recursive: true, force: true })
      else if (attempt > 500) throw new Error(`key store is locked (${lock})`)
      else await sleep(20)
    }
  }
  try {
    const { file, result } = change(await readKeyFile(stateDir))
    await writeKeyFile(stateDir, file)
    return result
  } finally {
    await fs.rm(lock, { recursive: true, force: true })
  }
}
