/** Bodies fit the routes' success schemas; without the guidance tables every method answers CorpusUnavailable. */
import { Schema } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DesignCodeEntry, EpoSection, FormParagraph, FormParagraphList, GuidanceGraph, MpepSection } from "../../api/guidance/Api.ts"
import { guidanceRuntime, guidanceVersion } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

let version: Awaited<ReturnType<typeof guidanceVersion>>
let g: ReturnType<typeof guidanceRuntime>
const bare = fs.mkdtempSync(path.join(os.tmpdir(), "guidance-bare-"))
const sample = await sampleArtifacts()
fs.copyFileSync(path.join(sample, "manifest.json"), path.join(bare, "manifest.json"))
fs.mkdirSync(path.join(bare, "tables"))
fs.copyFileSync(path.join(sample, "tables", "mpep_sections.parquet"), path.join(bare, "tables", "mpep_sections.parquet"))
const bareG = guidanceRuntime(bare)
beforeAll(async () => {
  version = await guidanceVersion(sample)
  g = guidanceRuntime(version.dir)
})
afterAll(async () => {
  await Promise.all([g?.dispose(), bareG.dispose()])
  version?.remove()
  fs.rmSync(bare, { recursive: true, force: true })
})

const fits = (schema: Schema.Schema.AnyNoContext, body: unknown) => expect(Schema.decodeUnknownEither(schema)(body)._tag).toBe("Right")

describe("response bodies", () => {
  it("fit the success schemas of every guidance route", async () => {
    fits(MpepSection, await g.run((s) => s.getMpepSection("2173.05(e)")))
    fits(EpoSection, await g.run((s) => s.getEpoGuideline("G-VII-5")))
    fits(FormParagraph, await g.run((s) => s.getFormParagraph("7.34.01")))
    fits(FormParagraph, await g.run((s) => s.getFormParagraph("15.11.fti")))
    fits(FormParagraphList, await g.run((s) => s.findFormParagraphs({ rejectionType: "obviousness", limit: 25 })))
    fits(GuidanceGraph, await g.run((s) => s.getGuidanceGraph("epo-G-VII-5.1", 10)))
    fits(DesignCodeEntry, await g.run((s) => s.getDesignCode("01.01.02")))
  })
})

describe("without the guidance stage's tables", () => {
  it("every method fails with CorpusUnavailable, whatever the id", async () => {
    const failures = await Promise.all([
      bareG.fail((s) => s.getMpepSection("2173.05(e)")),
      bareG.fail((s) => s.getEpoGuideline("not-an-id")),
      bareG.fail((s) => s.getFormParagraph("7.34.01")),
      bareG.fail((s) => s.findFormParagraphs({ rejectionType: "frivolous", limit: 25 })),
      bareG.fail((s) => s.findFormParagraphs({ mpepSection: "2175", limit: 25 })),
      bareG.fail((s) => s.getGuidanceGraph("mpep-2142", 50)),
      bareG.fail((s) => s.getDesignCode("01"))
    ])
    for (const f of failures) expect(f._tag).toBe("CorpusUnavailable")
  })
})
