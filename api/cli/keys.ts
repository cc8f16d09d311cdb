/**
 * Key CLI (CONTRACT.md):
 *   keys create --name NAME [--daily N] [--monthly N] [--expires-days N] [--test]
 *               [--allow-ip CIDR[,CIDR…]] [--permissions P[,P…]]     prints the key and nothing else
 *   keys list [--json]          handles, status, expiry, usage against the quota
 *   keys revoke|suspend|resume HANDLE
 *   keys rotate HANDLE          prints the replacement key and nothing else
 * State lives in STATE_DIR (default var/), shared with the running server.
 */
import * as path from "node:path"
import { parseArgs } from "node:util"
import { createKey, listKeys, rotateKey, setStatus } from "../auth/issue.ts"
import { QuotaLedger } from "../quota/ledger.ts"

const stateDir = process.env.STATE_DIR ?? "var/"

const integer = (flag: string, value: string | undefined) => {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a positive integer`)
  return Number(value)
}

const list = (value: string | undefined) => (value === undefined ? undefined : value.split(",").map((s) => s.trim()).filter(Boolean))

const usage = `usage: keys create --name NAME [--daily N] [--monthly N] [--expires-days N] [--test] [--allow-ip CIDR,…] [--permissions P,…]
       keys list [--json]
       keys revoke|suspend|resume|rotate HANDLE`

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
      const key = await createKey(stateDir, {
        name: values.name,
        daily: integer("--daily", values.daily),
        monthly: integer("--monthly", values.monthly),
        expiresDays: integer("--expires-days", values["expires-days"]),
        test: values.test ?? false,
        allowIps: list(values["allow-ip"]),
        permissions: list(values.permissions)
      })
      process.stdout.write(`${key}\n`)
      return
    }
    case "list": {
      const { values } = parseArgs({ args: [...rest], options: { json: { type: "boolean" } }, strict: true })
      const keys = await listKeys(stateDir)
      const usageOf = await QuotaLedger.readUsage(path.join(stateDir, "quota"))
      const rows = keys.map((k) => {
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
      await setStatus(stateDir, handle, command === "revoke" ? "revoked" : command === "suspend" ? "suspended" : "active")
      process.stderr.write(`${handle}: ${command === "resume" ? "active" : `${command}d`}\n`)
      return
    }
    case "rotate": {
      const handle = rest[0]
      if (!handle) throw new Error("rotate needs a HANDLE (the key's first 16 characters)")
      process.stdout.write(`${await rotateKey(stateDir, handle)}\n`)
      return
    }
    default:
      throw new Error(usage)
  }
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
  process.exit(1)
})
