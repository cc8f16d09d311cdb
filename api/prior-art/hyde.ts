/**
 * Query rewriting (`hyde`): a hypothetical abstract and first claim are drafted and searched
 * instead of the query.
 *
 * - With LLM_URL (an OpenAI-compatible chat endpoint) and LLM_MODEL configured, the model drafts
 *   them from the query.
 * - Otherwise (or when the model call fails) an extractive drafter writes them from the nearest
 *   documents: the hypothetical abstract is the query's own opening sentence followed by the
 *   neighbours' sentences that share the most telling query stems (idf-weighted; from their
 *   abstracts, else their first claims, else their titles; a passage sharing only common words
 *   is never borrowed); the hypothetical first claim
 *   is the query's claim when one was given, else the neighbour's first claim closest to the
 *   query. Pulling vocabulary from documents that are known to sit in the right region is what
 *   makes the rewritten query land nearer the references than the bare query does.
 */
import { tokenizePatentText } from "../../core/text/tokenize.ts"
import { indexedText } from "../../core/encoder/document-text.ts"

export interface Neighbour {
  readonly appNum: string
  readonly title: string | null
  readonly abstract: string | null
  readonly firstClaim: string | null
}

export interface HypotheticalDocument {
  readonly abstract: string
  readonly claim: string
  /** What was searched: abstract and claim joined like indexed documents. */
  readonly text: string
  /** `extractive` or `llm:<model>`. */
  readonly generator: string
  readonly sources?: ReadonlyArray<string>
  readonly note?: string
}

const stems = (s: string) => new Set(tokenizePatentText(s).map((t) => t.stem))
const sentences = (s: string) => s.split(/(?<=[.;])\s+(?=[A-Z])/).map((x) => x.trim()).filter((x) => x.length >= 20)
/** A drafted abstract reads as sentences: each borrowed piece ends with a full stop. */
const asSentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s.replace(/[;,:]$/, "")}.`)
/** How telling a shared stem is (the lexical index's idf); without one every stem counts 1. */
export type StemWeight = (stem: string) => number

/**
 * A neighbour's sentence is borrowed only when the stems it shares with the query weigh at least
 * this much: two ordinary stems, or one rare one, never "method" and "system" alone.
 */
const MIN_SHARED_WEIGHT = 2

const shared = (q: ReadonlySet<string>, s: string, weight: StemWeight) => {
  const st = stems(s)
  let w = 0
  for (const x of st) if (q.has(x)) w += weight(x)
  return { weight: w, score: st.size === 0 ? 0 : w / Math.sqrt(st.size) }
}

/** What a neighbour can lend: its abstract's sentences, else its first claim, else its title. */
const passagesOf = (n: Neighbour) => {
  const abstract = sentences(n.abstract?.trim() ?? "")
  if (abstract.length > 0) return abstract
  const claim = n.firstClaim?.trim()
  if (claim) return [claim]
  return n.title?.trim() ? [n.title.trim()] : []
}

export const draftExtractive = (query: { abstract?: string; claims?: string }, neighbours: ReadonlyArray<Neighbour>, weight: StemWeight = () => 1): HypotheticalDocument => {
  const queryText = [query.abstract, query.claims].filter((s) => s && s.trim()).join(" ")
  const q = stems(queryText)
  const opening = sentences(query.abstract?.trim() || query.claims?.trim() || "")[0] ?? (query.abstract?.trim() || query.claims?.trim() || "")
  const pool = neighbours.flatMap((n, rank) =>
    passagesOf(n).flatMap((s) => {
      const m = shared(q, s, weight)
      return m.weight >= MIN_SHARED_WEIGHT && s !== opening ? [{ s, app: n.appNum, score: m.score / (1 + rank * 0.1) }] : []
    })
  )
  const picked = pool.sort((a, b) => b.score - a.score).slice(0, 2)
  const abstract = [opening, ...picked.map((p) => p.s)].filter(Boolean).map(asSentence).join(" ")
  let claim = query.claims?.trim() ?? ""
  let claimSource: string | undefined
  if (!claim) {
    const best = neighbours
      .filter((n) => n.firstClaim)
      .map((n, rank) => ({ n, score: shared(q, n.firstClaim!, weight).score / (1 + rank * 0.1) }))
      .sort((a, b) => b.score - a.score)[0]
    claim = best?.n.firstClaim ?? ""
    claimSource = best?.n.appNum
  }
  const sources = [...new Set([...picked.map((p) => p.app), ...(claimSource ? [claimSource] : [])])]
  const note = sources.length === 0 ? "no nearby document shares telling words with the query; the query was searched as given" : undefined
  return { abstract, claim, text: indexedText({ abstract, firstClaim: claim }), generator: "extractive", sources, ...(note ? { note } : {}) }
}

export interface ChatModel {
  readonly url: string
  readonly model: string
  readonly apiKey?: string
}

const endpoint = (url: string) => (/\/chat\/completions\/?$/.test(url) ? url : `${url.replace(/\/+$/, "")}/chat/completions`)

/** Drafts with an OpenAI-compatible chat model; throws on any failure (the caller falls back). */
export const draftWithModel = async (llm: ChatModel, query: { abstract?: string; claims?: string }, signal?: AbortSignal): Promise<HypotheticalDocument> => {
  const response = await fetch(endpoint(llm.url), {
    method: "POST",
    headers: { "content-type": "application/json", ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
    signal: signal ?? AbortSignal.timeout(20_000),
    body: JSON.stringify({
      model: llm.model,
      temperature: 0.2,
      max_tokens: 700,
      messages: [
        {
          role: "system",
          content:
            "You draft a hypothetical patent document that would be prior art for the user's invention. Answer with exactly two sections:\nABSTRACT: <one paragraph, 80-150 words>\nCLAIM 1: <one independent claim>"
        },
        { role: "user", content: [query.abstract ? `Abstract: ${query.abstract}` : "", query.claims ? `Claims: ${query.claims}` : ""].filter(Boolean).join("\n\n") }
      ]
    })
  })
  if (!response.ok) throw new Error(`chat model answered ${response.status}`)
  const body = (await response.json()) as { choices?: Array<{ message?: { content?: string } }> }
  const content = body.choices?.[0]?.message?.content ?? ""
  const m = /ABSTRACT:\s*([\s\S]*?)\s*CLAIM\s*1?:\s*([\s\S]*)$/i.exec(content)
  const abstract = (m?.[1] ?? content).trim()
  const claim = (m?.[2] ?? "").trim()
  if (!abstract) throw new Error("chat model returned no text")
  return { abstract, claim, text: indexedText({ abstract, firstClaim: claim }), generator: `llm:${llm.model}` }
}
