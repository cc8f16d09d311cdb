/**
 * Issue 19's shape of the HTTP layer: authentication and admission are HttpApi middleware on the
 * declaration (not a gateway in front of it), and MCP and REST meet only through the service tags
 * of api/dispatch/ (no import cycle).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { HttpApiMiddleware } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { PatentApi } from "../../api/Api.ts"
import { Admission, Authentication, CurrentCaller } from "../../api/http/security/Api.ts"

const root = path.resolve(import.meta.dirname, "../../api")
const FEATURES = ["prior-art", "patent-map", "claim-validation", "patent-intel", "guidance", "warm-up", "mcp"]

const importsOf = (dir: string): Array<{ file: string; target: string }> =>
  fs.readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .flatMap((f) => {
      const file = path.join(dir, f)
      const text = fs.readFileSync(file, "utf8")
      return [...text.matchAll(/from "(\.[^"]+)"/g)].map((m) => ({ file: path.relative(root, file), target: path.relative(root, path.resolve(path.dirname(file), m[1])) }))
    })

describe("HTTP layer structure", () => {
  it("authenticates with an HttpApiMiddleware bearer scheme API-wide, providing the caller; each REST group adds admission", () => {
    expect(HttpApiMiddleware.SecurityTypeId in Authentication).toBe(true)
    expect(Object.values(Authentication.security).map((s) => s._tag)).toEqual(["Bearer"])
    expect(Authentication.provides).toBe(CurrentCaller)
    expect([...PatentApi.middlewares]).toContain(Authentication)
    const groups = Object.values(PatentApi.groups) as ReadonlyArray<{ identifier: string; middlewares: ReadonlySet<unknown> }>
    for (const group of groups.filter((g) => g.identifier !== "mcp")) expect([...group.middlewares], group.identifier).toContain(Admission)
  })

  it("keeps each feature in one folder (Api, Http, service) over a shared api/http that imports no feature", () => {
    for (const feature of FEATURES) {
      const files = fs.readdirSync(path.join(root, feature))
      expect(files, feature).toEqual(expect.arrayContaining(["Api.ts", "Http.ts"]))
    }
    // Shared transport, security, envelopes and middleware reach the routes only through the
    // composed declaration (Api.ts at the root, read by http/route-table.ts).
    const fromHttp = importsOf(path.join(root, "http")).filter((i) => FEATURES.some((f) => i.target.startsWith(`${f}/`)))
    expect(fromHttp).toEqual([])
  })

  it("MCP and REST meet only through the route table: no REST feature imports api/mcp, whose tools read api/http/route-table.ts", () => {
    const rest = FEATURES.filter((f) => f !== "mcp")
    const intoMcp = rest.flatMap((f) => importsOf(path.join(root, f))).filter((i) => i.target.startsWith("mcp/"))
    expect(intoMcp).toEqual([])
    const tools = importsOf(path.join(root, "mcp")).filter((i) => i.file === "mcp/tools.ts" && i.target.startsWith("http/"))
    expect(tools.map((i) => i.target)).toEqual(["http/route-table.ts"])
  })
})
