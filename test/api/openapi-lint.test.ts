/**
 * The served OpenAPI document passes `@redocly/cli lint` with its recommended rules: no error and
 * no warning (servers, licence, typed parameter examples, valid schemas and references).
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer, tempDir, type TestServer } from "./support.ts"

const REDOCLY = path.resolve("node_modules/.bin/redocly")

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.close())

describe("the OpenAPI document, linted", () => {
  it("has no error and no warning under redocly's recommended rules", async () => {
    const file = path.join(tempDir("openapi-lint"), "openapi.json")
    fs.writeFileSync(file, (await call(server.url, "GET", "/api/v1/openapi.json")).text)
    // Lint problems exit 1 with the report still on stdout.
    const { stdout } = await promisify(execFile)(REDOCLY, ["lint", file, "--format=json"], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      maxBuffer: 16 * 1024 * 1024
    }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }))
    const report = JSON.parse(stdout.slice(stdout.indexOf("{")))
    const problems = report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`)
    expect(problems).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  })
})
