/**
 * The page-images stage: copies the page images of image-only filings from the corpus into the
 * version (page-images/<application number>/), so a served version carries everything the OCR
 * reader of the continuity walk needs. Misplaced or oversized files are skipped and counted.
 */
import { Effect } from "effect"
import { createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { isPageImagePath, MAX_PAGE_IMAGE_BYTES, PAGE_IMAGES_DIR, pageImageOf } from "../../core/artifacts/page-images.ts"
import { SkipTally, type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"

export const pageImagesStage: Stage = {
  name: "page-images",
  sources: ["pipeline/page-images", "core/artifacts/page-images.ts"],
  dependsOn: [],
  readsCorpusFile: isPageImagePath,
  run: (ctx) =>
    stagePromise(async (): Promise<StageResult> => {
      const dir = path.join(ctx.workDir, PAGE_IMAGES_DIR)
      await fs.rm(dir, { recursive: true, force: true })
      await fs.mkdir(dir, { recursive: true })
      const skipped = new SkipTally()
      const outputs: string[] = []
      const applications = new Set<string>()
      for (const obj of ctx.corpusFiles) {
        const page = pageImageOf(obj.path)
        if ("problem" in page) {
          skipped.add({ file: obj.path, position: "file", reason: page.problem })
          continue
        }
        if (obj.size > MAX_PAGE_IMAGE_BYTES) {
          skipped.add({ file: obj.path, position: "file", reason: `page image of ${obj.size} bytes is over the ${MAX_PAGE_IMAGE_BYTES}-byte limit` })
          continue
        }
        const rel = path.posix.join(PAGE_IMAGES_DIR, page.appNum, page.file)
        await fs.mkdir(path.join(ctx.workDir, PAGE_IMAGES_DIR, page.appNum), { recursive: true })
        try {
          await pipeline(Readable.from(ctx.openCorpusFile(obj.path).open()), createWriteStream(path.join(ctx.workDir, rel)))
        } catch (e) {
          await fs.rm(path.join(ctx.workDir, rel), { force: true })
          skipped.add({ file: obj.path, position: "file", reason: `unreadable: ${e instanceof Error ? e.message : String(e)}` })
          continue
        }
        outputs.push(rel)
        applications.add(page.appNum)
        ctx.progress.tick(1, "page images")
      }
      return {
        outputs,
        rowCounts: { page_images: outputs.length },
        skipped,
        notes: [`${outputs.length} page images of ${applications.size} image-only filings`]
      }
    })
}
