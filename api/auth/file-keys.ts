/**
 * The embedded key store: STATE_DIR/keys.json. The key CLI writes the file from another process,
 * so every lookup checks the file's identity (inode, size, mtime) with a stat begun after the lookup
 * arrived, and reloads when it changed: a key created, revoked or rotated is in force on the next
 * request.
 */
import * as fs from "node:fs/promises"
import { createKey, listKeys, rotateKey, setStatus } from "./issue.ts"
import type { KeyBackend } from "./key-backend.ts"
import { keyFilePath, type KeyRecord, readKeyFile } from "./key-file.ts"

export const fileKeys = (stateDir: string): KeyBackend => {
  const file = keyFilePath(stateDir)
  let cache: { readonly signature: string; readonly byHandle: ReadonlyMap<string, KeyRecord> } | undefined

  const load = async () => {
    const stat = await fs.stat(file).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return undefined
      throw e
    })
    const signature = stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : "absent"
    if (cache?.signature !== signature) {
      const keys = (await readKeyFile(stateDir)).keys
      cache = { signature, byHandle: new Map(keys.map((k) => [k.handle, k])) }
    }
    return cache.byHandle
  }

  // Concurrent lookups share a check, but only one that began after they arrived: a check already
  // running may have read the file before a change the caller expects to see, so later arrivals
  // wait for the next one. Under load that is one stat per round instead of one per request.
  let running: Promise<ReadonlyMap<string, KeyRecord>> | undefined
  let queued: Promise<ReadonlyMap<string, KeyRecord>> | undefined
  const current = (): Promise<ReadonlyMap<string, KeyRecord>> => {
    if (!running) {
      running = load().finally(() => {
        running = undefined
      })
      return running
    }
    queued ??= running.then(
      () => undefined,
      () => undefined
    ).then(() => {
      queued = undefined
      return current()
    })
    return queued
  }

  return {
    kind: "file",
    findByHandle: (handle) => current().then((byHandle) => byHandle.get(handle)),
    create: (options, nowMs) => createKey(stateDir, options, nowMs),
    setStatus: (handle, status) => setStatus(stateDir, handle, status),
    rotate: (handle, nowMs) => rotateKey(stateDir, handle, nowMs),
    list: () => listKeys(stateDir)
  }
}
