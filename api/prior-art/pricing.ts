/**
 * What a search spends, from a configurable price table (PRIOR_ART_PRICES, JSON, USD). The
 * defaults are indicative cloud prices for the work this deployment does itself; set them to
 * your own costs. Spend is counted only for work actually done: a cached query vector costs no
 * encoding, a cached result costs nothing at all.
 */
import { Schema } from "effect"

export const PriceTable = Schema.Struct({
  /** Encoding a query through the hub, per 1,000 characters. */
  encodePer1kChars: Schema.Number,
  /** Late-interaction reranking, per candidate scored. */
  rerankPerCandidate: Schema.Number,
  /** One hypothetical-document call to the chat model. */
  llmPerCall: Schema.Number,
  /** Per page of OCR (prior-art search reads stored text: never spent here). */
  ocrPerPage: Schema.Number
})
export type PriceTable = typeof PriceTable.Type

export const DEFAULT_PRICES: PriceTable = { encodePer1kChars: 0.00002, rerankPerCandidate: 0.000004, llmPerCall: 0.002, ocrPerPage: 0.0015 }

/** Partial JSON overrides the defaults; malformed JSON keeps the defaults (and is logged by the caller). */
export const parsePriceTable = (json: string | undefined): { prices: PriceTable; error?: string } => {
  if (json === undefined || json.trim() === "") return { prices: DEFAULT_PRICES }
  try {
    const merged = { ...DEFAULT_PRICES, ...(JSON.parse(json) as object) }
    return { prices: Schema.decodeUnknownSync(PriceTable)(merged) }
  } catch (e) {
    return { prices: DEFAULT_PRICES, error: `PRIOR_ART_PRICES ignored: ${e instanceof Error ? e.message : String(e)}` }
  }
}

export interface Spend {
  encodedChars: number
  rerankedCandidates: number
  llmCalls: number
}

export const noSpend = (): Spend => ({ encodedChars: 0, rerankedCandidates: 0, llmCalls: 0 })

const usd = (x: number) => Math.round(x * 1e8) / 1e8

export const costOf = (p: PriceTable, s: Spend) => {
  const model = (s.encodedChars / 1000) * p.encodePer1kChars + s.rerankedCandidates * p.rerankPerCandidate + s.llmCalls * p.llmPerCall
  return { ocr_cost: 0, model_cost: usd(model), total_cost: usd(model) }
}
