/** SPEC part 5 over real HTTP: every status and code, in the order the spec fixes, on every route. */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEMO_KEY_NAME, issueDemoKey } from "../../api/auth/demo-key.ts"
import { listKeys, rotateKey, setStatus } from "../../api/auth/issue.ts"
import { routeTable } from "../../api/http/route-table.ts"
import { call, startTestServer, tempDir, type TestServer } from "./support.ts"

const run = promisify(execFile)
/** The key CLI as `npm run --silent keys --` runs it, without npm's own start-up. */
const cli = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) =>
  run(process.execPath, ["--import", "tsx", "api/cli/keys.ts", ...args], { env, cwd: path.resolve(import.meta.dirname, "../..") })

let server: TestServer
let key: string

beforeAll(async () => {
  server = await startTestServer()
  key = await server.key()
})
afterAll(() => server.close())

// A metered route whose backend is unavailable: reaching it proves authentication passed.
const CPC = "/api/v1/patent-intel/cpc/H04L"

describe("authentication codes", () => {
  it("401 MISSING_API_KEY without an Authorization header", async () => {
    const r = await call(server.url, "GET", CPC)
    expect(r.status).toBe(401)
    expect(r.json).toMatchObject({ code: "MISSING_API_KEY", error: expect.any(String), timestamp: expect.any(String) })
  })

  it("401 INVALID_AUTH_FORMAT when the header is not Bearer <key>", async () => {
    for (const authorization of ["Basic dXNlcjpwYXNz", key, "Bearer", "Bearer a b", "Token " + key]) {
      const r = await call(server.url, "GET", CPC, { authorization })
      expect(r.json?.code, authorization).toBe("INVALID_AUTH_FORMAT")
      expect(r.status).toBe(401)
    }
  })

  it("401 INVALID_KEY_FORMAT for a truncated or misshapen key, never KEY_NOT_FOUND", async () => {
    for (const bad of [key.slice(0, 39), key + "x", "ak_prod_" + key.slice(8), key.replace(/.$/, "!"), "ak_live_short"]) {
      const r = await call(server.url, "GET", CPC, { key: bad })
      expect(r.json?.code, bad).toBe("INVALID_KEY_FORMAT")
      expect(r.status).toBe(401)
    }
  })

  it("401 KEY_NOT_FOUND for a well-formed unknown key, a wrong secret behind a real handle, a suspended or revoked key", async () => {
    const unknown = "ak_live_" + "Z".repeat(32)
    const wrongSecret = key.slice(0, 16) + "A".repeat(24)
    for (const k of [unknown, wrongSecret]) {
      const r = await call(server.url, "GET", CPC, { key: k })
      expect(r.status).toBe(401)
      expect(r.json.code).toBe("KEY_NOT_FOUND")
    }
    const suspended = await server.key()
    await setStatus(server.stateDir, suspended.slice(0, 16), "suspended")
    expect((await call(server.url, "GET", CPC, { key: suspended })).json.code).toBe("KEY_NOT_FOUND")
    await setStatus(server.stateDir, suspended.slice(0, 16), "active")
    expect((await call(server.url, "GET", CPC, { key: suspended })).status).toBe(503)
    await setStatus(server.stateDir, suspended.slice(0, 16), "revoked")
    expect((await call(server.url, "GET", CPC, { key: suspended })).json.code).toBe("KEY_NOT_FOUND")
  })

  it("401 API_KEY_EXPIRED past the expiry date", async () => {
    const issuedLongAgo = await server.key({ expiresDays: 90 }, Date.now() - 91 * 86_400_000)
    const r = await call(server.url, "GET", CPC, { key: issuedLongAgo })
    expect(r.status).toBe(401)
    expect(r.json.code).toBe("API_KEY_EXPIRED")
  })

  it("403 TEST_KEY_FORBIDDEN for a test key on a live-only deployment; test keys work elsewhere", async () => {
    const testKey = await server.key({ test: true })
    expect(testKey.startsWith("ak_test_")).toBe(true)
    expect((await call(server.url, "GET", CPC, { key: testKey })).status).toBe(503)
    const liveOnly = await startTestServer({ stateDir: server.stateDir, keysLiveOnly: true })
    try {
      const r = await call(liveOnly.url, "GET", CPC, { key: testKey })
      expect(r.status).toBe(403)
      expect(r.json.code).toBe("TEST_KEY_FORBIDDEN")
      expect((await call(liveOnly.url, "GET", CPC, { key })).status).toBe(503)
    } finally {
      await liveOnly.close()
    }
  })

  it("403 IP_NOT_WHITELISTED outside the allowlist; IPv4 and IPv6 ranges admit their addresses", async () => {
    const outside = await server.key({ allowIps: ["10.0.0.0/8", "2001:db8::/32"] })
    const r = await call(server.url, "GET", CPC, { key: outside })
    expect(r.status).toBe(403)
    expect(r.json.code).toBe("IP_NOT_WHITELISTED")
    const loopback4 = await server.key({ allowIps: ["127.0.0.0/8"] })
    expect((await call(server.url, "GET", CPC, { key: loopback4 })).status).toBe(503)
    const v6 = await startTestServer({ host: "::1" })
    try {
      const loopback6 = await v6.key({ allowIps: ["::1/128"] })
      const only4 = await v6.key({ allowIps: ["127.0.0.1/32"] })
      expect((await call(v6.url, "GET", CPC, { key: loopback6 })).status).toBe(503)
      expect((await call(v6.url, "GET", CPC, { key: only4 })).json.code).toBe("IP_NOT_WHITELISTED")
    } finally {
      await v6.close()
    }
  })

  it("403 INSUFFICIENT_PERMISSIONS names the missing permission", async () => {
    const narrow = await server.key({ permissions: ["get_design_code"] })
    const r = await call(server.url, "GET", CPC, { key: narrow })
    expect(r.status).toBe(403)
    expect(r.json).toMatchObject({ code: "INSUFFICIENT_PERMISSIONS", permission: "lookup_cpc_code" })
    expect(r.json.error).toContain("lookup_cpc_code")
    expect((await call(server.url, "GET", "/api/v1/guidance/design-code/01", { key: narrow })).status).toBe(503)
  })

  it("500 AUTH_SYSTEM_ERROR when the key store cannot be read", async () => {
    const broken = await startTestServer()
    try {
      const k = await broken.key()
      fs.writeFileSync(path.join(broken.stateDir, "keys.json"), "{ not json")
      const r = await call(broken.url, "GET", CPC, { key: k })
      expect(r.status).toBe(500)
      expect(r.json).toMatchObject({ code: "AUTH_SYSTEM_ERROR", request_id: expect.any(String) })
    } finally {
      await broken.close()
    }
  })
})

describe("authentication runs before routing, the same on every endpoint", () => {
  it("every declared route answers 401 MISSING_API_KEY in its family's envelope", async () => {
    for (const route of routeTable) {
      const p = route.template.replace(/:(\w+)/g, "1234567")
      const r = await call(server.url, route.method, p, route.method === "POST" ? { body: {} } : {})
      expect(r.status, `${route.method} ${p}`).toBe(401)
      expect(r.json.code).toBe("MISSING_API_KEY")
      if (route.family === "prior-art") expect(r.json.success).toBe(false)
    }
  })

  it("an unknown route is 401 without a key and 404 with one", async () => {
    expect((await call(server.url, "GET", "/api/v1/no-such-thing")).status).toBe(401)
    const r = await call(server.url, "GET", "/api/v1/no-such-thing", { key })
    expect(r.status).toBe(404)
    expect(r.json.code).toBe("NOT_FOUND")
  })

  it("public routes need no key", async () => {
    for (const p of ["/metrics", "/docs", "/api/v1/openapi.json"]) expect((await call(server.url, "GET", p)).status).toBe(200)
    expect([200, 503]).toContain((await call(server.url, "GET", "/healthz")).status)
  })
})

describe("keys at rest and their lifecycle", () => {
  it("stores only salted hashes, never the key", () => {
    const stored = fs.readFileSync(path.join(server.stateDir, "keys.json"), "utf8")
    expect(stored).not.toContain(key)
    expect(stored).not.toContain(key.slice(16))
    expect(stored).toContain(key.slice(0, 16))
  })

  it("rotation revokes the old key and issues a working replacement", async () => {
    const old = await server.key()
    const fresh = await rotateKey(server.stateDir, old.slice(0, 16))
    expect((await call(server.url, "GET", CPC, { key: old })).json.code).toBe("KEY_NOT_FOUND")
    expect((await call(server.url, "GET", CPC, { key: fresh })).status).toBe(503)
  })

  it("the CLI's create prints the key and nothing else; list shows handles only", async () => {
    const env = { ...process.env, STATE_DIR: server.stateDir }
    const { stdout } = await run("npm", ["run", "--silent", "keys", "--", "create", "--name", "cli", "--daily", "5", "--permissions", "warm_up,lookup_cpc_code"], { env })
    expect(stdout).toMatch(/^ak_live_[A-Za-z0-9]{32}\n$/)
    const created = stdout.trim()
    expect((await call(server.url, "GET", CPC, { key: created })).status).toBe(503)
    const listed = await run("npm", ["run", "--silent", "keys", "--", "list"], { env })
    expect(listed.stdout).toContain(created.slice(0, 16))
    expect(listed.stdout).not.toContain(created)
    const rotated = await run("npm", ["run", "--silent", "keys", "--", "rotate", created.slice(0, 16)], { env })
    expect(rotated.stdout).toMatch(/^ak_live_[A-Za-z0-9]{32}\n$/)
    await run("npm", ["run", "--silent", "keys", "--", "suspend", rotated.stdout.trim().slice(0, 16)], { env })
    expect((await call(server.url, "GET", CPC, { key: rotated.stdout.trim() })).json.code).toBe("KEY_NOT_FOUND")
  })

  it("the CLI refuses numbers outside the key rules, naming the flag and the rule, and issues nothing", async () => {
    const env = { ...process.env, STATE_DIR: tempDir("cli-bounds") }
    const refused = async (args: ReadonlyArray<string>) => {
      const failure = await cli(["create", "--name", "bounds", ...args], env).then(
        () => undefined,
        (e: { code: number; stdout: string; stderr: string }) => e
      )
      expect(failure, args.join(" ")).toBeDefined()
      expect(failure!.code).not.toBe(0)
      expect(failure!.stdout).toBe("")
      return failure!.stderr.trim()
    }
    expect(await refused(["--daily", "99999999999999999999"])).toBe('--daily must be a whole number from 1 to 100000000 (got "99999999999999999999")')
    expect(await refused(["--daily", "0"])).toMatch(/^--daily must be a whole number from 1 to/)
    expect(await refused(["--monthly", "1e3"])).toMatch(/^--monthly must be a whole number from 1 to 3000000000/)
    expect(await refused(["--expires-days", "4000"])).toBe('--expires-days must be a whole number from 1 to 3650 (got "4000")')
    const listed = await cli(["list", "--json"], env)
    expect(JSON.parse(listed.stdout)).toEqual([])
  })

  it("the CLI reports each status change in plain words", async () => {
    const env = { ...process.env, STATE_DIR: server.stateDir }
    const handle = (await server.key()).slice(0, 16)
    const said = async (command: string) => (await cli([command, handle], env)).stderr
    expect(await said("suspend")).toBe(`${handle}: suspended\n`)
    expect(await said("resume")).toBe(`${handle}: active again\n`)
    expect(await said("revoke")).toBe(`${handle}: revoked\n`)
  })

  it("make serve's demo key lives a day, and each start revokes the one before", async () => {
    const stateDir = tempDir("demo")
    const first = await issueDemoKey(stateDir)
    const second = await issueDemoKey(stateDir)
    const demo = (await listKeys(stateDir)).filter((k) => k.name === DEMO_KEY_NAME)
    expect(demo.map((k) => [k.handle, k.status])).toEqual([
      [first.slice(0, 16), "revoked"],
      [second.slice(0, 16), "active"]
    ])
    const live = demo[1]!
    expect(Date.parse(live.expiresAt) - Date.parse(live.createdAt)).toBe(86_400_000)
    const demoServer = await startTestServer({ stateDir })
    try {
      expect((await call(demoServer.url, "GET", CPC, { key: first })).json.code).toBe("KEY_NOT_FOUND")
      expect((await call(demoServer.url, "GET", CPC, { key: second })).status).toBe(503)
    } finally {
      await demoServer.close()
    }
  })
})
