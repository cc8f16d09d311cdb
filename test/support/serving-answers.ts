/**
 * What the API reads from a version's serving record files and stored documents, key by key: for
 * tests that a night's files (bases with deltas, taken-over records) answer as a full write does.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { expect } from "vitest"
import { sqlString } from "../../core/artifacts/files.ts"
import { StoredDocuments } from "../../core/search/stored.ts"
import { RECORDS } from "../../core/serving/names.ts"
import { RecordFile } from "../../core/serving/reader.ts"
import { decodeIndex, deltaFileNames, keyAt, RecordFileKind, recordFileNames } from "../../core/serving/records.ts"

/** Every key a version's keyed record file (base and delta) names. */
const keysOf = async (dir: string, name: string) => {
  const keys = new Set<string>()
  for (const files of [recordFileNames(name), deltaFileNames(name)]) {
    const bytes = await fs.readFile(path.join(dir, files.index)).catch(() => undefined)
    if (!bytes) continue
    const layout = decodeIndex(bytes)
    if (layout.kind !== RecordFileKind.Keyed) return undefined
    for (let at = 0; at < layout.count; at++) keys.add(keyAt(layout, at).toString("utf8"))
  }
  return keys
}

/** The answers of every keyed record file of `dir` equal those of `expected`'s, key by key, and its counts. */
export const answersEqual = async (dir: string, expected: string, others: ReadonlyArray<string>) => {
  for (const name of Object.values(RECORDS)) {
    const want = await RecordFile.open(expected, name)
    if (!want) continue
    const got = (await RecordFile.open(dir, name))!
    try {
      const keys = await keysOf(expected, name)
      if (!keys) continue
      // Keys the other versions held too: a key gone must read as absent.
      for (const other of others) for (const k of (await keysOf(other, name)) ?? []) keys.add(k)
      expect(got.count, `serving/${name} count`).toBe(want.count)
      for (const k of keys) {
        const [a, b] = await Promise.all([want.get(k), got.get(k)])
        expect(b, `serving/${name} ${k}`).toEqual(a)
        expect(got.has(k)).toBe(want.has(k))
      }
    } finally {
      await Promise.all([want.close(), got.close()])
    }
  }
}

/** Every stored document of a version, by application number, as the API reads them. */
export const storedDocuments = async (dir: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  try {
    const apps = (await c.runAndReadAll(`SELECT app_num FROM read_parquet(${sqlString(path.join(dir, "documents", "stored_docs.parquet"))}) ORDER BY app_num`)).getRows().map(([a]) => String(a))
    const keyOf = new Map(apps.map((a, i) => [a, i]))
    const rows = async (sql: string) => {
      const r = await c.runAndReadAll(sql.replace("FROM stored_docs", `FROM read_parquet(${sqlString(path.join(dir, "documents", "stored_docs.parquet"))})`))
      return r.getRowObjectsJS() as Array<Record<string, unknown>>
    }
    const stored = (await StoredDocuments.open(dir, rows as never, keyOf, apps.length))!
    try {
      const docs = await stored.read(apps.map((_, i) => i))
      return new Map(apps.map((a, i) => [a, docs.get(i)]))
    } finally {
      await stored.close()
    }
  } finally {
    c.closeSync()
    db.closeSync()
  }
}
