/**
 * Key CLI (CONTRACT.md):
 *   keys create --name NAME [--daily N] [--monthly N] [--expires-days N] [--test]
 *               [--allow-ip CIDR[,CIDR…]] [--permissions P[,P…]]     prints the key and nothing else
 *   keys list [--json]          handles, status, expiry, usage against the quota
 *   keys revoke|suspend|resume HANDLE
 *   keys rotate HANDLE          prints the replacement key and nothing else
 * The store follows the server's configuration: PostgreSQL when DATABASE_URL is set (shared by
 * every replica), otherwise STATE_DIR (default var/), shared with the running server.
 * Bad input exits 1 with a message naming the flag and the rule.
 */
import { parseArgs } from "node:util"
import { Effect, Layer, ManagedRuntime } from "effect"
import { boundsRule, LIMIT_BOUNDS, type NumericFlag } from "../auth/issue.ts"
import type { KeyStatus } from "../auth/key-backend.ts"
import { KeyStore } from "../auth/KeyStore.ts"
import { Settings } from "../config.ts"
import { readQuotaUsage } from "../quota/usage.ts"
import { StateDatabase } from "../state/Database.ts"

/** A flag's number: digits only, then the bounds the key rules set (api/auth/issue.ts). */
const integer = (flag: NumericFlag, value: string | undefined) => {
  if (value === undefined) return undefined
  const text = value.trim()
  const n = /^\d+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(n) || n < LIMIT_BOUNDS[flag].min || n > LIMIT_BOUNDS[flag].max) {
    throw new Error(`${flag} must be ${boundsRule(flag)} (got ${JSON.stringify(value)})`)
  }
  return n
}

const list = (value: string | undefined) => (value === undefined ? undefined : value.split(",").map((s) => s.trim()).filter(Boolean))

const usage = `usage: keys create --name NAME [--daily N] [--monthly N] [--expires-days N] [--test] [--allow-ip CIDR,…] [--permissions P,…]
       keys list [--json]
       keys revoke|suspend|resume|rotate HANDLE`

const runtime = ManagedRuntime.make(Layer.mergeAll(KeyStore.Default, StateDatabase.Default).pipe(Layer.provideMerge(Settings.fromEnv)))
const keys = <A, E extends { readonly message: string }>(program: Effect.Effect<A, E, KeyStore | StateDatabase | Settings>) =>
  runtime.runPromise(program.pipe(Effect.mapError((e) => new Error(e.message))))

const DONE: Record<"revoke" | "suspend" | "resume", { readonly status: KeyStatus; readonly said: string }> = {
  revoke: { status: "revoked", said: "revoked" },
  suspend: { status: "suspended", said: "suspended" },
  resume: { status: "active", said: "active again" }
}

const main = async (argv: ReadonlyArray<string>) => {
  const [command, ...rest] = argv
  switch (command) {
    case "create": {
      const { values } = parseArgs({
        args: [...rest],
        options: {
          name: { type: "string" },
          daily: { type: "string" },
          monthly: { type: "string" },
          "expires-days": { type: "string" },
          test: { type: "boolean" },
          "allow-ip": { type: "string" },
          permissions: { type: "string" }
        },
        strict: true
      })
      if (!values.name) throw new Error("--name is required")
      const options = {
        name: values.name,
        daily: integer("--daily", values.daily),
        monthly: integer("--monthly", values.monthly),
        expiresDays: integer("--expires-days", values["expires-days"]),
        test: values.test ?? false,
        allowIps: list(values["allow-ip"]),
        permissions: list(values.permissions)
      }
      const key = await keys(Effect.flatMap(KeyStore, (store) => store.create(options)))
      process.stdout.write(`${key}\n`)
      return
    }
    case "list": {
      const { values } = parseArgs({ args: [...rest], options: { json: { type: "boolean" } }, strict: true })
      const [records, usageOf] = await keys(Effect.all([Effect.flatMap(KeyStore, (store) => store.list), readQuotaUsage]))
      const rows = records.map((k) => {
        const u = usageOf(k.lineage)
        return {
          handle: k.handle,
          name: k.name,
          status: k.status,
          test: k.test,
          expiresAt: k.expiresAt,
          usedToday: u.today,
          daily: k.daily,
          usedThisMonth: u.thisMonth,
          monthly: k.monthly,
          allowIps: k.allowIps,
          permissions: k.permissions
        }
      })
      if (values.json) {
        process.stdout.write(JSON.stringify(rows, null, 2) + "\n")
        return
      }
      for (const r of rows) {
        process.stdout.write(
          [
            r.handle,
            r.status.padEnd(9),
            r.test ? "test" : "live",
            `expires ${r.expiresAt.slice(0, 10)}`,
            `today ${r.usedToday}/${r.daily}`,
            `month ${r.usedThisMonth}/${r.monthly}`,
            r.allowIps ? `ips ${r.allowIps.join(",")}` : "any ip",
            r.permissions ? `perms ${r.permissions.join(",")}` : "all permissions",
            JSON.stringify(r.name)
          ].join("  ") + "\n"
        )
      }
      return
    }
    case "revoke":
    case "suspend":
    case "resume": {
      const handle = rest[0]
      if (!handle) throw new Error(`${command} needs a HANDLE (the key's first 16 characters)`)
      await keys(Effect.flatMap(KeyStore, (store) => store.setStatus(handle, DONE[command].status)))
      process.stderr.write(`${handle}: ${DONE[command].said}\n`)
      return
    }
    case "rotate": {
      const handle = rest[0]
      if (!handle) throw new Error("rotate needs a HANDLE (the key's first 16 characters)")
      process.stdout.write(`${await keys(Effect.flatMap(KeyStore, (store) => store.rotate(handle)))}\n`)
      return
    }
    default:
      throw new Error(usage)
  }
}

main(process.argv.slice(2)).then(
  () => runtime.dispose(),
  async (e) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
    await runtime.dispose().catch(() => undefined)
    process.exit(1)
  }
)
