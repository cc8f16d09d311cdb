/** The artifact version the hub serves, read once from ARTIFACTS_DIR's manifest at start. */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Config, Effect, Option } from "effect"

export class ServedVersion extends Effect.Service<ServedVersion>()("hub/ServedVersion", {
  effect: Effect.gen(function* () {
    const dir = yield* Config.string("ARTIFACTS_DIR").pipe(Config.withDefault("artifacts/current"))
    const version = yield* Effect.tryPromise(async () => {
      const manifest = JSON.parse(await fs.readFile(path.join(await fs.realpath(dir), "manifest.json"), "utf8")) as { version?: unknown }
      return typeof manifest.version === "string" ? Option.some(manifest.version) : Option.none<string>()
    }).pipe(Effect.orElseSucceed(() => Option.none<string>()))
    return { version } as const
  })
}) {}
