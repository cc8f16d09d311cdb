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

/**
 * A query of fewer words than this is a phrase ("gear pump", "surgical robots"), where the discount
 * above does not hold: a phrase is no longer than a title, and the title records that match it
 * are the on-topic ones; discounted, the few long records it matches weakly take its head.
 * Chosen on the dev splits only (2026-11-29 night): the phrase-search bench (bench/phrase-search.ts;
 * CPC titles of at most three words as queries), plain search main group@10 / subclass@10 /
 * recall@100 of the entry, every query discounted 0.102 / 0.219 / 0.171, phrases under 3 words
 * exempt 0.114 / 0.230 / 0.178, under 4 words 0.115 / 0.232 / 0.181; and the held-out citations
 * (bench/retrieval.ts --tune-plain --tune-only phraseWords, the sample's title queries), objective
 * 1.820 at 0, 1.823 at 3, 1.803 at 4 (short CPC@10 0.639, under its floor of 0.641), 1.797 at 6:
 * 3 is the largest count that costs the citations nothing.
 */
export const PHRASE_WORDS = 3

/** Whether `text` has fewer than `below` words (runs of letters and digits); never for `below` 0. */
export const isPhrase = (text: string, below: number): boolean => {
  if (below <= 0) return false
  let words = 0
  for (const _ of text.matchAll(/[\p{L}\p{N}]+/gu)) if (++words >= below) return false
  return true
}

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
