/**
 * Learned fusion of plain search's candidates (dense + citation graph), and of hybrid search's
 * (BM25's hits too): a logistic model over what each channel says about a candidate, fitted on the
 * development split of held-out examiner citations (bench/retrieval.ts --fit-fusion, --fit-hybrid),
 * instead of reciprocal-rank fusion's fixed votes.
 *
 * Why: rank fusion sees only ranks. Two signals it could not weigh were measured to matter on the
 * synthetic corpus's development split (README, issue 18):
 * - how close a candidate the graph found is to the query in text: the graph's finds outside the
 *   dense pool had no text vote at all, so a cited document of another art ranked with one of the
 *   query's own (the cosine of every candidate is read from the resident vectors);
 * - what the query's neighbourhood cites: the graph expanded from the dense hits within 0.8 of the
 *   best, not only the confident head, counts how often the art like the query cites a document.
 * A model weighs those against the dense rank, the confident head's citations and how often the
 * corpus cites a candidate, all at once.
 */

import { rankVote } from "./fusion.ts"

/** What the channels say about one candidate. */
export interface CandidateEvidence {
  /** 1-based rank among the dense hits; undefined when dense search did not return it. */
  readonly denseRank?: number
  /** Its cosine to the searched query over the best dense hit's (1 = as close as the best). */
  readonly cosineShare: number
  /** 1-based rank in the citation channel seeded by the confident head (retrieve.ts seedsOf). */
  readonly graphRank?: number
  /** 1-based rank in the citation graph expanded from the query's neighbourhood (RetrievalWeights.neighbourhoodFloor). */
  readonly neighbourhoodRank?: number
  /** Applications of the corpus that cite it. */
  readonly citedBy: number
  /** A dense hit within the corroboration floor of the best (RetrievalWeights.corroborationFloor). */
  readonly wellMatched: boolean
  /** 1-based rank among BM25's hits (hybrid search only); undefined when BM25 did not return it or did not run. */
  readonly lexicalRank?: number
}

/** The model's inputs, in the order of FusionModel.weights. */
export const FUSION_FEATURES = [
  "bias",
  "denseVote",
  "denseHit",
  "cosineShare",
  "graphVote",
  "graphHit",
  "neighbourhoodVote",
  "neighbourhoodHit",
  "logCitedByClose",
  "logCitedByWellMatched",
  "lexicalVote",
  "lexicalHit"
] as const

/**
 * Citing applications counted at most: about the most any document of the synthetic corpus the
 * model was fitted on has (17), so a landmark patent cited thousands of times is not scored beyond
 * the range the weights were learned from.
 */
export const CITED_BY_CAP = 16

/** A rank's vote as reciprocal-rank fusion counts it, so the model starts from the same scale. */
const vote = (rank: number | undefined) => (rank === undefined ? 0 : rankVote(rank))

export const fusionFeatures = (e: CandidateEvidence): number[] => {
  const logCitedBy = Math.log1p(Math.min(e.citedBy, CITED_BY_CAP))
  // How often the corpus cites a candidate counts in proportion to how close its text is, so a much
  // cited document the query matches weakly gains next to nothing from it.
  const closeness = Math.max(e.cosineShare, 0) ** 4
  return [
    1,
    vote(e.denseRank),
    e.denseRank === undefined ? 0 : 1,
    e.cosineShare,
    vote(e.graphRank),
    e.graphRank === undefined ? 0 : 1,
    vote(e.neighbourhoodRank),
    e.neighbourhoodRank === undefined ? 0 : 1,
    logCitedBy * closeness,
    e.wellMatched ? logCitedBy : 0,
    vote(e.lexicalRank),
    e.lexicalRank === undefined ? 0 : 1
  ]
}

/** Logistic-regression weights over FUSION_FEATURES (raw feature scale). */
export interface FusionModel {
  readonly weights: ReadonlyArray<number>
}

/** The model's estimate that an examiner would cite the candidate for this query (0–1); only its order is relied on. */
export const fusionScore = (model: FusionModel, e: CandidateEvidence): number => {
  const x = fusionFeatures(e)
  let z = 0
  for (let i = 0; i < x.length; i++) z += model.weights[i] * x[i]
  return 1 / (1 + Math.exp(-z))
}

/**
 * Fitted on 2026-11-30 by bench/retrieval.ts --fit-fusion on the development split of the 100k
 * synthetic corpus's held-out examiner citations (--queries 1000: 488 long dev queries, 141,281
 * candidates, 1,028 of them cited; L2 1 on standardised features; the neighbourhood seeded by the
 * dense hits within 0.8 of the best, RetrievalWeights.neighbourhoodFloor). Dev recall@100 / MRR:
 * rank fusion 0.817 / 0.356, this model 0.840 / 0.391 (counting citations whatever the text's closeness
 * and without the cap: 0.844 / 0.389, but a document cited often enough then outranked the query's
 * best matches however weakly it matched). The sample does not enter the fit: once its held-out queries' edges are
 * dropped its graph is nearly empty, so it says nothing about the graph's weights, and its dev
 * recall is the same under this model as under rank fusion (README). A candidate is likelier cited
 * the higher its dense rank, the closer its text, the higher the graph ranks it, and the more often
 * the corpus cites it the closer its text; being a dense or graph hit at all counts against a
 * candidate only to offset the vote it then has.
 */
export const FUSION_MODEL: FusionModel = {
  // The lexical features are 0 for every candidate of a plain search, so the fit gives them no weight.
  weights: [-9.7925, 154.5525, -0.8311, 3.626, 170.4794, -1.3541, 30.4426, 0.528, 0.6691, 0.5357, 0, 0]
}

/**
 * Hybrid search's model: the same evidence and BM25's rank, fitted the same way on 2026-11-30
 * (bench/retrieval.ts --fit-hybrid --queries 1000: 488 long dev queries, 171,247 candidates, 1,033
 * cited). Dev recall@100 / MRR: rank fusion 0.819 / 0.357, this model 0.840 / 0.410. Under rank
 * fusion a BM25 hit the query matches weakly in text had a channel's vote and hybrid search found
 * less than plain search; the model reads its cosine. The neighbourhood's vote turns negative next
 * to BM25's: both say which of an art's documents are central, and BM25's rank says it here.
 */
export const HYBRID_FUSION_MODEL: FusionModel = {
  weights: [-9.7189, 89.5734, -0.2926, 2.6482, 173.2469, -1.285, -15.1451, 0.9816, 1.0888, 0.2701, 116.166, -0.1707]
}
