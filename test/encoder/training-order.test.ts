/**
 * The subword trainer keeps lines by their position, so every training source must reach it in
 * one order fixed by a unique key, whatever DuckDB's threads and memory limit: MPEP lines and EPO
 * sentences in section order and then in their order within the section, the other parts by
 * their row keys, thinned or not.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { describe, expect, it } from "vitest"
import { trainingSources } from "../../pipeline/encoder/stage.ts"
import { defaultSubwordTrainingOptions } from "../../pipeline/encoder/subword-train.ts"

const SECTIONS = 12
const LINES = 400

/** Every source's texts, read under the given DuckDB settings from tables inserted in a scrambled order. */
const readSources = async (settings: string, maxTrainingWords: number) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    await conn.run(settings)
    // Rows inserted in hash order, so storage order says nothing about the key order.
    await conn.run(`
      CREATE TABLE mpep_sections AS
      SELECT 'mpep-' || lpad(s::VARCHAR, 3, '0') AS section_id,
        string_agg('mpep section ' || s || ' line ' || l || ' words', chr(10) ORDER BY l) AS content
      FROM range(${SECTIONS}) a(s), range(${LINES}) b(l) GROUP BY s ORDER BY hash(s)`)
    await conn.run(`
      CREATE TABLE epo_sections AS
      SELECT 'epo-' || lpad(s::VARCHAR, 3, '0') AS section_id,
        string_agg('epo section ' || s || ' sentence ' || l || ' words', '. ' ORDER BY l) AS content
      FROM range(${SECTIONS}) a(s), range(${LINES}) b(l) GROUP BY s ORDER BY hash(s)`)
    await conn.run(`CREATE TABLE applications AS SELECT (10000000 + i)::VARCHAR AS app_num, 'title ' || i AS title, 'abstract ' || i AS abstract FROM range(300) t(i) ORDER BY hash(i)`)
    await conn.run(`CREATE TABLE claims AS SELECT a.app_num, c AS claim_num, 'claim ' || c || ' of ' || a.app_num AS text FROM applications a, range(1, 6) t(c) ORDER BY hash(a.app_num, c)`)
    const out: Record<string, string[]> = {}
    for (const source of await trainingSources(conn, { ...defaultSubwordTrainingOptions, maxTrainingWords })) {
      const texts: string[] = []
      for await (const t of source.texts as AsyncIterable<string>) texts.push(t)
      out[source.name] = texts
    }
    return out
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** The (section, position) pairs a text names, in the order read. */
const positions = (texts: ReadonlyArray<string>, unit: string) =>
  texts.map((t) => {
    const m = new RegExp(`section (\\d+) ${unit} (\\d+)`).exec(t)!
    return [Number(m[1]), Number(m[2])] as const
  })

const ascending = (pairs: ReadonlyArray<readonly [number, number]>) =>
  pairs.every((p, i) => i === 0 || pairs[i - 1][0] < p[0] || (pairs[i - 1][0] === p[0] && pairs[i - 1][1] < p[1]))

describe("encoder training sources", () => {
  it("read guidance lines in section and line order, and every part by its key, under any DuckDB settings", async () => {
    const one = await readSources("SET threads = 1", 10_000_000)
    const many = await readSources("SET threads = 4; SET memory_limit = '256MB'", 10_000_000)
    expect(many).toEqual(one)
    expect(one.mpep).toHaveLength(SECTIONS * LINES)
    expect(ascending(positions(one.mpep, "line"))).toBe(true)
    expect(ascending(positions(one["epo guidelines"], "sentence"))).toBe(true)
    expect(one.applications).toEqual(Array.from({ length: 300 }, (_, i) => `title ${i} abstract ${i}`))
    expect(one.claims).toEqual(Array.from({ length: 1500 }, (_, i) => `claim ${(i % 5) + 1} of ${10000000 + Math.floor(i / 5)}`))
  })

  it("keep that order when large parts are thinned in SQL", async () => {
    const one = await readSources("SET threads = 1", 5_000)
    const many = await readSources("SET threads = 4", 5_000)
    expect(many).toEqual(one)
    expect(one.mpep.length).toBeGreaterThan(0)
    expect(one.mpep.length).toBeLessThan(SECTIONS * LINES)
    expect(ascending(positions(one.mpep, "line"))).toBe(true)
    expect(ascending(positions(one["epo guidelines"], "sentence"))).toBe(true)
  })
})
