/** Pseudo-relevance feedback in the dense channel (core/search/feedback.ts, retrieve.ts). */
import { describe, expect, it } from "vitest"
import { CitationGraph } from "../../core/search/citations.ts"
import { DenseChannel, type VectorIndexLike } from "../../core/search/dense.ts"
import { channelOver, unitAt } from "../support/angle-channel.ts"
import { FEEDBACK_DOCUMENTS, rocchioQuery } from "../../core/search/feedback.ts"
import { retrieve } from "../../core/search/retrieve.ts"


describe("pseudo-relevance feedback", () => {
  it("adds the mean of the feedback vectors, at the feedback weight, to the unit query", () => {
    const q = rocchioQuery(Float32Array.from([3, 4]), [Float32Array.from([1, 0]), Float32Array.from([0, 1])], 1)
    expect([...q].map((x) => +x.toFixed(4))).toEqual([0.6 + 0.5, 0.8 + 0.5])
    const same = Float32Array.from([1, 2])
    expect(rocchioQuery(same, [])).toBe(same)
  })

  it("pulls ahead what the best first-round documents agree on, and reports similarity to the query as given", async () => {
    expect(FEEDBACK_DOCUMENTS).toBe(5)
    // Query at 0°. Five documents cluster at +12…+18° and one outlier sits at −19°: the first
    // round ranks the outlier (19° away) above the cluster's edge at +24°. Feedback from the
    // top five moves the query towards the cluster, and +24° overtakes −19°.
    const angles = [12, 14, 16, 18, -19, 24]
    const dense = channelOver(angles)
    const parts = { dense, graph: new CitationGraph(angles.length, []) }
    const query = Float32Array.from(unitAt(0))
    const channels = { dense: true, citations: false, lexical: false }
    const plain = await retrieve(parts, { vector: query, text: "", depth: 10, channels, feedback: false })
    expect(plain.hits.map((h) => h.key)).toEqual([0, 1, 2, 3, 4, 5])
    expect(plain.feedback).toEqual([])
    const withFeedback = await retrieve(parts, { vector: query, text: "", depth: 10, channels })
    expect(withFeedback.feedback).toEqual([0, 1, 2, 3, 4])
    expect(withFeedback.hits.map((h) => h.key)).toEqual([0, 1, 2, 3, 5, 4])
    expect(withFeedback.similarity.get(4)).toBeCloseTo(Math.cos((19 * Math.PI) / 180), 5)
    expect(withFeedback.similarity.get(5)).toBeCloseTo(Math.cos((24 * Math.PI) / 180), 5)
  })

  it("is skipped when the version has no stored vectors to average (built before vectors.f32)", async () => {
    const angles = [12, 14, 16, 18, -19, 24]
    const resident = channelOver(angles)
    const bare = new DenseChannel((resident as unknown as { index: VectorIndexLike }).index, 2, angles.length)
    const r = await retrieve({ dense: bare }, { vector: Float32Array.from(unitAt(0)), text: "", depth: 10, channels: { dense: true, citations: false, lexical: false } })
    expect(r.feedback).toEqual([])
    expect(r.hits.map((h) => h.key)).toEqual([0, 1, 2, 3, 4, 5])
  })
})
