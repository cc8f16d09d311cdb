/**
 * Image-only filings: page images travel from the corpus into the version (page-images stage),
 * Tesseract reads them for the continuity walk, and what it read is cut into paragraphs like a
 * filed specification. The reading test renders a real page with Debian's chromium and reads it
 * with Debian's tesseract-ocr; it is skipped where either is not installed (.ci/run installs both).
 */
import { Effect, Exit, Layer } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ArtifactStore } from "../../api/artifacts/ArtifactStore.ts"
import { ocrPage, paragraphsOfOcrText, SpecificationOcr } from "../../api/claim-validation/ocr.ts"
import { Settings } from "../../api/config.ts"
import { settingsWith } from "../../api/server.ts"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { pageImagesStage } from "../../pipeline/page-images/stage.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"

const installed = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: "ignore", timeout: 30_000 })
    return true
  } catch {
    return false
  }
}
const canRead = installed("tesseract", ["--version"]) && installed("chromium", ["--version"])

const PROVISIONAL = "62123456"
const PAGE = `<html><body style="font-family: serif; font-size: 22px; margin: 60px; background: white; color: black">
<p>DETAILED DESCRIPTION</p>
<p>[0012] A shock absorber comprises a cylinder and a piston rod. The damping valve is mounted on the piston rod and
throttles the oil flow between the two working chambers.</p>
<p>[0013] In one embodiment, a rebound spring surrounds the piston rod.</p>
</body></html>`

let tmp: string
let corpus: string
let artifacts: string

const write = async (rel: string, data: string | Uint8Array) => {
  await fs.mkdir(path.dirname(path.join(corpus, rel)), { recursive: true })
  await fs.writeFile(path.join(corpus, rel), data)
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "ocr-"))
  corpus = path.join(tmp, "corpus")
  artifacts = path.join(tmp, "artifacts")
  if (canRead) {
    await fs.writeFile(path.join(tmp, "page.html"), PAGE)
    execFileSync("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", `--screenshot=${path.join(tmp, "page.png")}`, "--window-size=1000,700", `file://${path.join(tmp, "page.html")}`], { stdio: "ignore", timeout: 60_000 })
    await write(`uspto/page-images/${PROVISIONAL}/0001.png`, await fs.readFile(path.join(tmp, "page.png")))
  } else {
    await write(`uspto/page-images/${PROVISIONAL}/0001.png`, new Uint8Array([0x89, 0x50, 0x4e, 0x47]))
  }
  await write("uspto/page-images/not-a-number/0001.png", "x")
  await write(`uspto/page-images/${PROVISIONAL}/notes.txt`, "x")
  const exit = await Effect.runPromiseExit(
    runPipeline({ corpus, artifactsRoot: artifacts, stages: [pageImagesStage], progress: silentProgress }).pipe(Effect.provide(CorpusStore.Default))
  )
  if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
}, 120_000)
afterAll(() => fs.rm(tmp, { recursive: true, force: true }))

describe("page-images stage", () => {
  it("copies a filing's page images into the version and skips misplaced files, counting them", async () => {
    const current = path.join(artifacts, "current")
    expect(await fs.readdir(path.join(current, "page-images", PROVISIONAL))).toEqual(["0001.png"])
    const manifest = JSON.parse(await fs.readFile(path.join(current, "manifest.json"), "utf8"))
    const stage = manifest.stages.find((s: { name: string }) => s.name === "page-images")
    expect(stage.rowCounts).toEqual({ page_images: 1 })
    expect(stage.skipped.count).toBe(2)
    expect(stage.skipped.samples.map((s: { file: string }) => s.file).sort()).toEqual([
      `uspto/page-images/${PROVISIONAL}/notes.txt`,
      "uspto/page-images/not-a-number/0001.png"
    ])
  })
})

describe("OCR text into paragraphs", () => {
  it("keeps printed numbers and headings, joins words broken over a line, drops page numbers", () => {
    const paras = paragraphsOfOcrText(["BACKGROUND\n\n[0002] Shock absorbers are well known in vehic-\nles of all kinds.\n\n2\n", "A rebound spring\nsurrounds the rod.\n\nPage 3 of 9"])
    expect(paras).toEqual([
      { section: "BACKGROUND", sectionKind: "background", paragraph: "0002", text: "Shock absorbers are well known in vehicles of all kinds.", sectionOffset: 0 },
      { section: "BACKGROUND", sectionKind: "background", paragraph: "2", text: "A rebound spring surrounds the rod.", sectionOffset: 0 }
    ])
  })

  it("says plainly when Tesseract is not installed", async () => {
    await expect(ocrPage("/nonexistent.png", "/nonexistent/tesseract")).rejects.toThrow(/Tesseract is not installed.*tesseract-ocr/)
  })
})

describe.skipIf(!canRead)("reading a scanned specification with Tesseract", () => {
  const read = (appNum: string, stateDir: string) =>
    Effect.runPromise(
      Effect.flatMap(SpecificationOcr, (o) => o.read(appNum)).pipe(
        Effect.provide(
          SpecificationOcr.Default.pipe(
            Layer.provideMerge(ArtifactStore.Default),
            Layer.provide(Settings.layer(settingsWith({ artifactsDir: path.join(artifacts, "current"), stateDir, logRequests: false })))
          )
        )
      )
    )

  it("reads the page into numbered paragraphs under their heading, once", async () => {
    const stateDir = path.join(tmp, "state")
    const outcome = await read(PROVISIONAL, stateDir)
    expect(outcome.status).toBe("read")
    if (outcome.status !== "read") return
    expect(outcome.pages).toBe(1)
    expect(outcome.paragraphs.map((p) => p.paragraph)).toEqual(["0012", "0013"])
    expect(outcome.paragraphs[0]).toMatchObject({ section: "DETAILED DESCRIPTION", sectionKind: "detailed-description" })
    expect(outcome.paragraphs[0].text).toContain("damping valve is mounted on the piston rod")
    expect(outcome.paragraphs[1].text).toContain("rebound spring surrounds the piston rod")
    // Read once per version: the second answer comes from STATE_DIR.
    const [version] = await fs.readdir(path.join(stateDir, "ocr"))
    expect(await fs.readdir(path.join(stateDir, "ocr", version))).toEqual([`${PROVISIONAL}.json`])
    expect(await read(PROVISIONAL, stateDir)).toEqual(outcome)
  }, 60_000)

  it("says when a filing has no page images", async () => {
    expect(await read("62999999", path.join(tmp, "state"))).toMatchObject({ status: "no-images" })
  })
})
