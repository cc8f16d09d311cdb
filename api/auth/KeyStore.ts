/**
 * The server's read side of STATE_DIR/keys.json. The key CLI writes the file from another
 * process, so every lookup checks the file's identity (inode, size, mtime) with one stat and
 * reloads when it changed: a key created, revoked or rotated is in force on the next request.
 */
import * as fs from "node:fs/promises"
import { Data, Effect } from "effect"
import { Settings } from "../config.ts"
import { keyFilePath, type KeyRecord, readKeyFile } from "./key-file.ts"

export class KeyStoreFailure extends Data.TaggedError("KeyStoreFailure")<{ readonly message: string }> {}

export class KeyStore extends Effect.Service<KeyStore>()("api/KeyStore", {
  effect: Effect.gen(function* () {
    const { stateDir } = yield* Settings
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

    return {
      findByHandle: (handle: string) =>
        Effect.tryPromise({
          try: () => load().then((byHandle) => byHandle.get(handle)),
          catch: (e) => new KeyStoreFailure({ message: `key store unreadable: ${e instanceof Error ? e.message : String(e)}` })
        })
    } as const
  })
}) {}
