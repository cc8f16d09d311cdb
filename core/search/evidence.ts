/**
 * How much text a document's vector was estimated from. Most records of a PEDS-only application
 * carry a title and nothing else; a vector from five words leans on the directions every query
 * shares, so its cosine to a long query runs high ("Oral care compositions comprising a flavor
 * system" scored 0.90 against a diaper claim whose own patent scored 0.61). The dense channel
 * therefore ranks such short records by a discounted score; the similarity it reports stays the
 * plain cosine.
 *
 * Measured on the sample's held-out grants (bench/retrieval.ts; 94% of its records are titles
 * alone), discounting the dense channel's final ranking: weight → dense recall@10 / recall@100,
 * hybrid+rerank recall@100 / MRR:
 *   none 0.149 / 0.381, 0.429 / 0.176;  0.85 0.152 / 0.426, 0.444 / 0.177;
 *   0.7 0.163 / 0.453, 0.456 / 0.185;   0.6 0.180 / 0.459, 0.476 / 0.190;   0.55 0.208 / 0.460, 0.479 / 0.187.
 * 0.6 was used: near the best measured and short of the strongest, since these queries were also
 * what it was chosen on. It is now 0.4, chosen on the development split only (bench/retrieval.ts
 * --tune-plain, with the other retrieval weights): plain search recall@100 / MRR on the sample's
 * dev split 0.509 / 0.197 at 0.6, 0.521 / 0.210 at 0.4. Applied as well when the first round picks the feedback documents (five
 * title records would pull the query toward titles), the plain search (dense, feedback, citations)
 * goes from recall@10 0.140 / recall@100 0.409 / MRR 0.149 to 0.194 / 0.475 / 0.175. The synthetic
 * corpus (abstracts everywhere) is not discounted.
 */
import type { Scored } from "./top-k.ts"

/** A stored record (title, abstract, first claim as JSON) under this many bytes is a title, or little more. */
export const SHORT_RECORD_BYTES = 400
export const SHORT_RECORD_WEIGHT = 0.4

export interface RecordSizes {
  /** Bytes stored for a key; 0 when unknown. */
  bytesOf(key: number): number
}

/** The dense hits re-ranked with short records discounted (unchanged when sizes are unknown). */
export const rankByEvidence = (hits: ReadonlyArray<Scored>, sizes: RecordSizes | undefined, weight = SHORT_RECORD_WEIGHT): Scored[] => {
  if (!sizes) return [...hits]
  let changed = false
  const out = hits.map((h) => {
    const bytes = sizes.bytesOf(h.key)
    if (bytes === 0 || bytes >= SHORT_RECORD_BYTES) return h
    changed = true
    return { key: h.key, score: h.score * weight }
  })
  return changed ? out.sort((a, b) => b.score - a.score) : out
}
