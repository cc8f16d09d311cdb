/**
 * Reading image-only filings (most provisionals) for the continuity walk: the page images the
 * page-images stage put into the served version (page-images/<application number>/) are read
 * by Tesseract (Debian package tesseract-ocr; `make ocr-setup` installs it), one page at a
 * time, and cut into paragraphs like a filed specification. What was read is kept under
 * STATE_DIR per artifact version, so a filing is read once, not on every request.
 */
import { Effect, Option } from "effect"
import { execFile } from "node:child_process"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { isApplicationNumber, isPageFileName, PAGE_IMAGES_DIR } from "../../core/artifacts/page-images.ts"
import { sectionKindOf } from "../../core/claims/support/specification.ts"
import type { SpecParagraph } from "../../core/claims/support/types.ts"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { Settings } from "../config.ts"
import { DiskCache, versionCacheDir } from "../state/disk-cache.ts"

export type OcrOutcome =
  | { readonly status: "read"; readonly paragraphs: ReadonlyArray<SpecParagraph>; readonly pages: number }
  | { readonly status: "no-images"; readonly detail: string }
  | { readonly status: "failed"; readonly detail: string }

const TESSERACT = "tesseract"
/** One scanned page takes 1-5 s; a page that takes this long is not going to finish. */
const PAGE_TIMEOUT_MS = 120_000
const OCR_SECTION = "SPECIFICATION (OCR)"

/** The page images of one filing in page order (file-name order), or none. */
export const pageImagesOf = async (versionDir: string, appNum: string): Promise<string[]> => {
  if (!isApplicationNumber(appNum)) return []
  const dir = path.join(versionDir, PAGE_IMAGES_DIR, appNum)
  const names = await fs.readdir(dir).catch(() => [] as string[])
  return names.filter(isPageFileName).sort().map((n) => path.join(dir, n))
}

/** Tesseract's text of one page image. */
export const ocrPage = (file: string, binary = TESSERACT): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(binary, [file, "stdout", "-l", "eng", "--psm", "3"], { timeout: PAGE_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (!error) return resolve(stdout)
      const code = (error as NodeJS.ErrnoException).code
      reject(
        new Error(
          code === "ENOENT"
            ? "Tesseract is not installed on this server (Debian package tesseract-ocr; `make ocr-setup` installs it)"
            : `Tesseract failed on ${path.basename(file)}: ${error.killed ? "timed out" : error.message.split("\n")[0]}`
        )
      )
    })
  })

/** A heading line in a scan: short, mostly capitals, no sentence punctuation ("DETAILED DESCRIPTION"). */
const isHeading = (block: string) => block.length <= 80 && !/[.;:,]$/.test(block) && /[A-Z]/.test(block) && block === block.toUpperCase()
const PRINTED_NUMBER = /^\[(\d{3,5})\]\s*/

/**
 * OCR text → specification paragraphs: blocks split at blank lines, words broken over a line
 * end joined again, page numbers and running heads dropped, headings kept as the section of what
 * follows, printed paragraph numbers ("[0012]") kept, others numbered by position.
 */
export const paragraphsOfOcrText = (pages: ReadonlyArray<string>): SpecParagraph[] => {
  const out: SpecParagraph[] = []
  let section = OCR_SECTION
  for (const page of pages) {
    for (const raw of page.replace(/\r\n?/g, "\n").replace(/\f/g, "\n\n").split(/\n[ \t]*\n/)) {
      const block = raw.replace(/([a-z])-\n([a-z])/g, "$1$2").replace(/\s+/g, " ").trim()
      if (block.length < 3 || /^(?:page )?\d+(?: of \d+)?$/i.test(block)) continue
      if (isHeading(block)) {
        section = block
        continue
      }
      const printed = PRINTED_NUMBER.exec(block)
      out.push({
        section,
        sectionKind: sectionKindOf(section === OCR_SECTION ? "" : section),
        paragraph: printed ? printed[1].padStart(4, "0") : String(out.length + 1),
        text: printed ? block.slice(printed[0].length) : block,
        sectionOffset: 0
      })
    }
  }
  return out
}

export class SpecificationOcr extends Effect.Service<SpecificationOcr>()("api/SpecificationOcr", {
  effect: Effect.gen(function* () {
    const store = yield* ArtifactStore
    const { stateDir } = yield* Settings

    // Earlier readings of the served version's scans (the images of a version never change).
    const served = Option.map(store.served(), (v) => ({
      versionDir: v.versionDir,
      readings: new DiskCache<{ pages: string[] }>(versionCacheDir(stateDir, "ocr", v.manifest.version), 20)
    }))

    const readPages = (files: ReadonlyArray<string>, appNum: string, cache: DiskCache<{ pages: string[] }>) =>
      Effect.tryPromise({
        try: async (): Promise<OcrOutcome> => {
          let pages = (await cache.get(appNum))?.pages
          if (!pages) {
            pages = []
            // One page at a time: Tesseract uses every core it is given, and the API shares them.
            for (const f of files) pages.push(await ocrPage(f))
            await cache.set(appNum, { pages })
          }
          return { status: "read", paragraphs: paragraphsOfOcrText(pages), pages: pages.length }
        },
        catch: (e) => (e instanceof Error ? e.message : String(e))
      }).pipe(Effect.catchAll((detail) => Effect.succeed<OcrOutcome>({ status: "failed", detail })))

    return {
      /** OCR the page images of one application's specification. */
      read: (appNum: string): Effect.Effect<OcrOutcome> =>
        Option.match(served, {
          onNone: () => Effect.succeed<OcrOutcome>({ status: "no-images", detail: "no artifact version is loaded" }),
          onSome: (v) =>
            Effect.flatMap(
              Effect.promise(() => pageImagesOf(v.versionDir, appNum)),
              (files): Effect.Effect<OcrOutcome> =>
                files.length === 0
                  ? Effect.succeed({ status: "no-images", detail: `the served version holds no page images of ${appNum}` })
                  : readPages(files, appNum, v.readings)
            )
        })
    }
  })
}) {}
