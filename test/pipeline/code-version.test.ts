/**
 * A stage's code version covers what its code imports, not only the folders it lists: the atlas
 * stage lists pipeline/atlas but builds its index with core/index/hnsw.ts, and a change there
 * must not let an old atlas be reused.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { codeSourcesOf, codeVersionOf, repoRoot } from "../../pipeline/stages/fingerprint.ts"

const scratch = fs.mkdtempSync(path.join(repoRoot, ".tmp", "code-version-"))
const rel = (f: string) => path.relative(repoRoot, path.join(scratch, f)).split(path.sep).join("/")

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

describe("stage code versions", () => {
  it("follow imports out of the listed folders, and name the packages used with their versions", async () => {
    const atlas = await codeSourcesOf(["pipeline/atlas"])
    expect(atlas.files).toContain("core/index/hnsw.ts")
    const usearch = JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules/usearch/package.json"), "utf8")).version
    expect(atlas.packages).toContain(`usearch@${usearch}`)
  })

  it("change when an imported module changes, but not for a module imported only for its types", async () => {
    fs.mkdirSync(path.join(scratch, "stage"))
    fs.writeFileSync(path.join(scratch, "stage", "main.ts"), `import { helper } from "../helper.ts"\nimport type { Shape } from "../types.ts"\nexport const run = (s: Shape) => helper(s)\n`)
    fs.writeFileSync(path.join(scratch, "helper.ts"), `export const helper = (x: unknown) => x\n`)
    fs.writeFileSync(path.join(scratch, "types.ts"), `export interface Shape { a: number }\n`)
    const sources = [rel("stage")]
    expect((await codeSourcesOf(sources)).files).toEqual([rel("helper.ts"), rel("stage/main.ts")])
    const before = await codeVersionOf(sources)
    fs.writeFileSync(path.join(scratch, "types.ts"), `export interface Shape { a: number; b: string }\n`)
    expect(await codeVersionOf(sources)).toBe(before)
    fs.writeFileSync(path.join(scratch, "helper.ts"), `export const helper = (x: unknown) => [x]\n`)
    expect(await codeVersionOf(sources)).not.toBe(before)
  })
})
