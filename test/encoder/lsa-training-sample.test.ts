/**
 * Past LSA_TRAINING_SAMPLE applications the LSA encoder trains on a fixed hash-spread sample: the
 * same applications on every build of the same corpus, in application order, with the indexed
 * text the embed stage encodes; a smaller corpus trains on every application.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { describe, expect, it } from "vitest"
import { lsaTrainingTexts } from "../../pipeline/encoder/stage.ts"

const collect = async (texts: () => AsyncIterable<string>) => {
  const out: string[] = []
  for await (const t of texts()) out.push(t)
  return out
}

describe("LSA training sample", () => {
  it("takes every application up to the cap and a fixed sample of exactly the cap past it", async () => {
    const db = await DuckDBInstance.create(":memory:")
    const conn = await db.connect()
    await conn.run(`CREATE TABLE applications AS SELECT (10000000 + i)::VARCHAR AS app_num, 'Title ' || i AS title, 'An abstract about widget ' || i AS abstract FROM range(40) t(i)`)
    await conn.run(`CREATE TABLE claims AS SELECT app_num, 1 AS claim_num, 'A widget comprising part ' || app_num AS text FROM applications`)
    const all = await lsaTrainingTexts(conn, 40)
    expect(all.sampled).toBe(false)
    expect(await collect(all.texts)).toHaveLength(40)
    const first = await lsaTrainingTexts(conn, 15)
    const again = await lsaTrainingTexts(conn, 15)
    expect(first).toMatchObject({ sampled: true, applications: 40 })
    const picked = await collect(first.texts)
    expect(picked).toHaveLength(15)
    expect(await collect(again.texts)).toEqual(picked)
    const everyText = await collect(all.texts)
    // A subset of the full texts, in the same (application) order.
    expect(everyText.filter((t) => picked.includes(t))).toEqual(picked)
    conn.closeSync()
    db.closeSync()
  })
})
