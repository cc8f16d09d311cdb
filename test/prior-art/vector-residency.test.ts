/**
 * A search answers the same whether the unit vectors fit the memory budget (resident) or are read
 * by position from vectors.f32: the national corpus on a smaller machine must not silently lose
 * pseudo-relevance feedback or change its reported similarities.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultVectorBudgetBytes, openSearchState, type SearchState } from "../../core/search/open.ts"
import { retrieve } from "../../core/search/retrieve.ts"
import { openSearchTables } from "../../bench/search-tables.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()

describe("unit vectors resident or read by position", () => {
  let resident: SearchState
  let onDisk: SearchState
  let close: () => void

  beforeAll(async () => {
    const tables = await openSearchTables(versionDir)
    resident = await openSearchState(versionDir, tables.rows)
    onDisk = await openSearchState(versionDir, tables.rows, { vectorBudgetBytes: 0 })
    close = tables.close
  })
  afterAll(async () => {
    await resident?.close()
    await onDisk?.close()
    close?.()
  })

  it("keeps vectors resident within a quarter of RAM and reads them by position past it", async () => {
    expect(defaultVectorBudgetBytes(64 * 2 ** 30)).toBe(16 * 2 ** 30)
    expect(resident.vectorsResident).toBe(true)
    expect(onDisk.vectorsResident).toBe(false)
    const key = 7
    expect([...(await onDisk.dense.vectorsOf([key])).get(key)!]).toEqual([...(await resident.dense.vectorsOf([key])).get(key)!])
    expect((await onDisk.dense.vectorsOf([-1, onDisk.corpus.vectorCount])).size).toBe(0)
  })

  it("gives the same hits, feedback documents and similarities for plain and hybrid searches", async () => {
    const channels = [
      { dense: true, citations: true, lexical: false },
      { dense: true, citations: true, lexical: true }
    ]
    // Queries: stored vectors of spread-out applications, nudged so they are not the record itself.
    const step = Math.floor(resident.corpus.vectorCount / 6)
    for (const [i, key] of [step, 2 * step, 3 * step, 4 * step].entries()) {
      const near = await resident.dense.vectorsOf([key, key + 1])
      const [own, other] = [near.get(key)!, near.get(key + 1)!]
      const vector = Float32Array.from(own, (x, j) => x + 0.5 * other[j]!)
      const request = { vector, text: resident.corpus.appNums[key]!, depth: 20, channels: channels[i % 2]! }
      const a = await retrieve({ dense: resident.dense, lexical: resident.lexical, graph: resident.graph }, request)
      const b = await retrieve({ dense: onDisk.dense, lexical: onDisk.lexical, graph: onDisk.graph }, request)
      expect(a.feedback.length).toBeGreaterThan(0)
      expect(b.feedback).toEqual(a.feedback)
      expect(b.hits).toEqual(a.hits)
      expect([...b.similarity]).toEqual([...a.similarity])
    }
  })
})
