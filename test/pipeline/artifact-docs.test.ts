/** artifacts/README.md documents every published table and each of its columns. */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { parquetFilesOf } from "../../core/artifacts/files.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()

describe("artifacts/README.md", () => {
  it("names every Parquet table and every column", async () => {
    const readme = await fs.readFile("artifacts/README.md", "utf8")
    const conn = await (await DuckDBInstance.create(":memory:")).connect()
    const missing: string[] = []
    for (const rel of await parquetFilesOf(versionDir)) {
      const table = path.basename(rel, ".parquet")
      if (!readme.includes(table)) missing.push(table)
      const cols = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path.join(versionDir, rel)}')`)).getRows().map((r) => String(r[0]))
      for (const c of cols) if (!new RegExp(`\\b${c}\\b`).test(readme)) missing.push(`${table}.${c}`)
    }
    expect(missing).toEqual([])
  })
})
