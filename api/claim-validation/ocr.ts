/**
 * Reading image-only filings (most provisionals) for the continuity walk. The switch semantics
 * live in the service; this is where page images would be found and passed to Tesseract
 * (Debian package tesseract-ocr). The served corpus ships no page images, so the reader says so
 * rather than pretending: a deployment with images replaces this layer.
 */
import { Effect } from "effect"
import type { SpecParagraph } from "../../core/claims/support/types.ts"

export type OcrOutcome =
  | { readonly status: "read"; readonly paragraphs: ReadonlyArray<SpecParagraph> }
  | { readonly status: "no-images"; readonly detail: string }
  | { readonly status: "failed"; readonly detail: string }

export class SpecificationOcr extends Effect.Service<SpecificationOcr>()("api/SpecificationOcr", {
  succeed: {
    /** OCR the page images of one application's specification. */
    read: (appNum: string): Effect.Effect<OcrOutcome> =>
      Effect.succeed({ status: "no-images", detail: `no page images are available in this corpus for ${appNum}, so there is nothing to OCR` })
  }
}) {}
