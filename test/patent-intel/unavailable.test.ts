/** Without the prosecution tables every method fails with CorpusUnavailable (rendered as 503). */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { patentIntelRuntime } from "./runtime.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

// A version with its manifest and the examiners table, but none of the prosecution stage's outputs.
const versionDir = await sampleArtifacts()
const partial = fs.mkdtempSync(path.join(os.tmpdir(), "patent-intel-partial-"))
fs.mkdirSync(path.join(partial, "tables"))
fs.copyFileSync(path.join(versionDir, "manifest.json"), path.join(partial, "manifest.json"))
fs.copyFileSync(path.join(versionDir, "tables", "examiners.parquet"), path.join(partial, "tables", "examiners.parquet"))

const partialPi = patentIntelRuntime(partial)
const missingPi = patentIntelRuntime(path.join(partial, "no-such-version"))
afterAll(async () => {
  await Promise.all([partialPi.dispose(), missingPi.dispose()])
  fs.rmSync(partial, { recursive: true, force: true })
})

describe("CorpusUnavailable", () => {
  for (const [label, pi] of [["prosecution tables missing", partialPi], ["no artifact version", missingPi]] as const) {
    it(`every route fails with CorpusUnavailable: ${label}`, async () => {
      const failures = await Promise.all([
        pi.fail((s) => s.lookupCpcCode("G06F", { childLimit: 50, distributionLimit: 20 })),
        pi.fail((s) => s.getPatentClassification("17356223")),
        pi.fail((s) => s.getArtUnitProfile("2863")),
        pi.fail((s) => s.findExaminer({ name: "BRYANT", limit: 20 })),
        pi.fail((s) => s.getExaminerProfile("bryant-christian-thomas", []))
      ])
      for (const f of failures) expect(f._tag).toBe("CorpusUnavailable")
    })
  }
})
