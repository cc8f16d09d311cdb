import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { RecordFile } from "../../core/serving/reader.ts"
import { RecordFileKind, recordFileNames } from "../../core/serving/records.ts"
import { openRecordWriter } from "../../pipeline/serving/write-records.ts"

const dirs: string[] = []
const tempDir = async () => {
  const d = await fs.mkdtemp(path.join(os.tmpdir(), "records-"))
  dirs.push(d)
  return d
}
afterAll(() => Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true }))))

describe("record files", () => {
  it("reads back every record by key, and nothing for an absent key", async () => {
    const dir = await tempDir()
    const w = await openRecordWriter(dir, "apps", RecordFileKind.Keyed)
    const keys = Array.from({ length: 5000 }, (_, i) => String(10_000_000 + i * 7))
    for (const k of keys) await w.add(k, { k, title: `title ${k} ü` })
    expect((await w.finish()).records).toBe(5000)
    const file = (await RecordFile.open<{ k: string; title: string }>(dir, "apps"))!
    expect(file.count).toBe(5000)
    for (const k of [keys[0], keys[1234], keys[4999]]) expect(await file.get(k)).toEqual({ k, title: `title ${k} ü` })
    expect(await file.get("10000001")).toBeUndefined()
    expect(await file.get("")).toBeUndefined()
    expect(await file.get("99999999")).toBeUndefined()
    const many = await file.getMany([keys[3], "nope", keys[3], keys[9]])
    expect([...many.keys()]).toEqual([keys[3], keys[9]])
    await file.close()
  })

  it("serves ordinal files by position, with gaps answering nothing", async () => {
    const dir = await tempDir()
    const w = await openRecordWriter(dir, "points", RecordFileKind.Ordinal)
    await w.add(0, { x: 0 })
    await w.add(3, { x: 3 })
    await w.finish()
    const file = (await RecordFile.open(dir, "points"))!
    expect(file.count).toBe(4)
    expect(await file.get(0)).toEqual({ x: 0 })
    expect(await file.get(1)).toBeUndefined()
    expect(await file.get(3)).toEqual({ x: 3 })
    expect(await file.get(4)).toBeUndefined()
    expect(await file.get(-1)).toBeUndefined()
    await file.close()
  })

  it("refuses keys out of order, so a lookup can never miss a stored key", async () => {
    const dir = await tempDir()
    const w = await openRecordWriter(dir, "apps", RecordFileKind.Keyed)
    await w.add("b", 1)
    await expect(w.add("a", 2)).rejects.toThrow(/not after/)
    await expect(w.add("b", 2)).rejects.toThrow(/not after/)
  })

  it("is absent for a version without the file and refuses a data file cut short", async () => {
    const dir = await tempDir()
    expect(await RecordFile.open(dir, "missing")).toBeUndefined()
    const w = await openRecordWriter(dir, "apps", RecordFileKind.Keyed)
    await w.add("a", { long: "x".repeat(100) })
    await w.finish()
    await fs.truncate(path.join(dir, recordFileNames("apps").data), 10)
    await expect(RecordFile.open(dir, "apps")).rejects.toThrow(/does not match its index/)
  })
})

describe("record file ranges", () => {
  it("reads a window of positions in one pass, skipping gaps", async () => {
    const dir = await tempDir()
    const w = await openRecordWriter(dir, "points", RecordFileKind.Ordinal)
    for (const k of [0, 1, 2, 5, 6]) await w.add(k, { k })
    await w.finish()
    const file = (await RecordFile.open<{ k: number }>(dir, "points"))!
    expect(file.present()).toBe(5)
    expect((await file.range(1, 6)).map(([k, r]) => [k, r.k])).toEqual([[1, 1], [2, 2], [5, 5]])
    expect(await file.range(7, 100)).toEqual([])
    await file.close()
  })
})
