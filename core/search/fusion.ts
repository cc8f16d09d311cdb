/**
 * Reciprocal-rank fusion (Cormack, Clarke & Büttcher 2009): each channel contributes
 * weight / (k + rank) for every document it ranked (rank 1 = best), and documents are ordered
 * by the sum. Ranks, not raw scores, are fused because cosine similarities, BM25 sums and
 * citation-graph weights live on unrelated scales. k = 60 is the published default; it damps
 * the difference between rank 1 and rank 2 so one channel cannot dictate the head of the list.
 *
 * Ties (same fused score) go to the document with the better best rank in any channel, then to
 * the one whose best rank came from the channel listed first (callers list the text's own
 * channels before the citation graph, so the graph's first find does not displace the text's
 * best match on a tie), then to the smaller key, so the order is deterministic.
 */
export const RRF_K = 60

/** What a rank counts in reciprocal-rank fusion: 1 / (RRF_K + rank), rank 1 = best. */
export const rankVote = (rank: number): number => 1 / (RRF_K + rank)

export interface ChannelRanking {
  readonly channel: string
  /** Keys best first. */
  readonly keys: ReadonlyArray<number>
  readonly weight?: number
  /** A key's weight where it differs from `weight` (the citation channel's keys no other channel ranked). */
  readonly weightOf?: (key: number) => number
  /**
   * A prior over what the channels found rather than a channel: its vote adds to the score of a
   * key another ranking holds, but it brings in no key of its own, is no leg, has no rank in
   * `ranks`, and plays no part in the ties.
   */
  readonly prior?: boolean
  /** A prior's 1-based rank of each of `keys` where keys tie (equal counts share a rank); by default its position. */
  readonly rankOf?: ReadonlyArray<number>
}

export interface FusedHit {
  readonly key: number
  readonly score: number
  /** 1-based rank per channel that found the document. */
  readonly ranks: Readonly<Record<string, number>>
  /** How many channels found it. */
  readonly legs: number
}

export const reciprocalRankFusion = (rankings: ReadonlyArray<ChannelRanking>, k = RRF_K): FusedHit[] => {
  const byKey = new Map<number, { score: number; ranks: Record<string, number>; best: number; bestChannel: number; legs: number }>()
  rankings.forEach(({ channel, keys, weight = 1, weightOf, prior }, c) => {
    if (prior) return
    keys.forEach((key, i) => {
      const rank = i + 1
      let e = byKey.get(key)
      if (!e) byKey.set(key, (e = { score: 0, ranks: {}, best: Infinity, bestChannel: c, legs: 0 }))
      if (e.ranks[channel] !== undefined) return // a channel ranks a document once
      e.ranks[channel] = rank
      e.score += (weightOf ? weightOf(key) : weight) / (k + rank)
      if (rank < e.best) {
        e.best = rank
        e.bestChannel = c
      }
      e.legs++
    })
  })
  for (const { keys, weight = 1, prior, rankOf } of rankings) {
    if (!prior) continue
    keys.forEach((key, i) => {
      const e = byKey.get(key)
      if (e) e.score += weight / (k + (rankOf?.[i] ?? i + 1))
    })
  }
  return [...byKey.entries()]
    .sort(([ka, a], [kb, b]) => b.score - a.score || a.best - b.best || a.bestChannel - b.bestChannel || ka - kb)
    .map(([key, e]) => ({ key, score: e.score, ranks: e.ranks, legs: e.legs }))
}
