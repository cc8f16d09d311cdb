/**
 * What every notebook shares: command-line arguments, a READ_ONLY connection to the catalog,
 * SQL "cells" that return plain rows, and writers for tables (CSV and Markdown) and charts.
 *
 * A notebook is a module exporting a `Notebook`; run directly (`node --import tsx
 * notebooks/<name>.ts`) it executes itself through `runIfMain`, and `run-all.ts` imports and
 * runs all of them against one catalog.
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

export const DEFAULT_CATALOG = "artifacts/current/catalog.duckdb"
export const DEFAULT_OUT = "notebooks/out"

export type Row = Record<string, unknown>

export interface Catalog {
  /** Runs one SQL cell and returns its rows as plain JS values (BIGINT → number, DATE → string). */
  readonly rows: <T extends Row = Row>(sql: string) => Promise<T[]>
  /** Whether the catalog has a view or table of that name (older builds may lack one). */
  readonly has: (table: string) => Promise<boolean>
  readonly path: string
}

export interface NotebookContext {
  readonly catalog: Catalog
  readonly outDir: string
  /** Writes a table as `<name>.csv` and `<name>.md` (with an optional preamble); returns the paths. */
  readonly table: (name: string, rows: ReadonlyArray<Row>, preamble?: ReadonlyArray<string>) => Promise<string[]>
  /** Writes `<name>.svg`; returns its path. */
  readonly chart: (name: string, svg: string) => Promise<string>
}

export interface NotebookResult {
  /** Headline results, one line each. */
  readonly findings: ReadonlyArray<string>
  /** Where the data is too thin to read much into the result (printed as warnings). */
  readonly thin: ReadonlyArray<string>
}

export interface Notebook {
  /** File stem: outputs go to `<outDir>/<name>/`. */
  readonly name: string
  readonly question: string
  /** Catalog views the notebook reads: checked first, for a clear message on an older build. */
  readonly tables: ReadonlyArray<string>
  readonly run: (ctx: NotebookContext) => Promise<NotebookResult>
}

export interface NotebookRun extends NotebookResult {
  readonly name: string
  readonly files: ReadonlyArray<string>
}

const jsonValue = (v: unknown): unknown => {
  if (typeof v === "bigint") return Number(v)
  if (Array.isArray(v)) return v.map(jsonValue)
  if (v && typeof v === "object" && !(v instanceof Date)) {
    // DuckDB DATE/TIMESTAMP values and decimals come back as objects with toString().
    const proto = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null && typeof (v as { toString?: unknown }).toString === "function") return String(v)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x)]))
  }
  return v
}

export const openCatalog = async (file: string): Promise<Catalog & { close: () => void }> => {
  await fs.access(file).catch(() => {
    throw new Error(`catalog not found: ${file} (run \`make artifacts\` first, or pass --catalog <path>)`)
  })
  const db = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" })
  const conn: DuckDBConnection = await db.connect()
  const rows = async <T extends Row>(sql: string) => ((await conn.runAndReadAll(sql)).getRowObjectsJS() as Row[]).map((r) => jsonValue(r) as T)
  return {
    path: file,
    rows,
    has: async (table) =>
      (await rows(`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = '${table.replace(/'/g, "''")}'`))[0].n !== 0,
    close: () => {
      conn.closeSync()
      db.closeSync()
    }
  }
}

const csvCell = (v: unknown) => {
  if (v === null || v === undefined) return ""
  const s = typeof v === "object" ? JSON.stringify(v) : String(v)
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export const toCsv = (rows: ReadonlyArray<Row>) => {
  const cols = rows.length ? Object.keys(rows[0]) : []
  return [cols.join(","), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(","))].join("\n") + "\n"
}

const mdCell = (v: unknown) => {
  if (v === null || v === undefined) return ""
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Math.round(v * 10_000) / 10_000)
  return (typeof v === "object" ? JSON.stringify(v) : String(v)).replace(/\|/g, "\\|").replace(/\n/g, " ")
}

export const toMarkdown = (rows: ReadonlyArray<Row>) => {
  if (rows.length === 0) return "_(no rows)_\n"
  const cols = Object.keys(rows[0])
  return [`| ${cols.join(" | ")} |`, `|${cols.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${cols.map((c) => mdCell(r[c])).join(" | ")} |`)].join("\n") + "\n"
}

export const runNotebook = async (nb: Notebook, catalog: Catalog, outRoot: string): Promise<NotebookRun> => {
  const missing: string[] = []
  for (const t of nb.tables) if (!(await catalog.has(t))) missing.push(t)
  if (missing.length) throw new Error(`the catalog has no ${missing.join(", ")} view(s): rebuild with \`make artifacts\``)
  const outDir = path.join(outRoot, nb.name)
  // The folder belongs to this notebook: clear it so no file of an earlier run lingers.
  await fs.rm(outDir, { recursive: true, force: true })
  await fs.mkdir(outDir, { recursive: true })
  const files: string[] = []
  const write = async (file: string, content: string) => {
    await fs.writeFile(file, content)
    files.push(file)
    return file
  }
  const ctx: NotebookContext = {
    catalog,
    outDir,
    table: async (name, rows, preamble = []) => [
      await write(path.join(outDir, `${name}.csv`), toCsv(rows)),
      await write(path.join(outDir, `${name}.md`), [...preamble, ...(preamble.length ? [""] : []), toMarkdown(rows)].join("\n"))
    ],
    chart: (name, svg) => write(path.join(outDir, `${name}.svg`), svg)
  }
  const result = await nb.run(ctx)
  await write(
    path.join(outDir, "README.md"),
    [
      `# ${nb.name}`,
      "",
      `**Question.** ${nb.question}`,
      "",
      `Catalog: \`${catalog.path}\``,
      "",
      "## Findings",
      "",
      ...result.findings.map((f) => `- ${f}`),
      ...(result.thin.length ? ["", "## Thin data", "", ...result.thin.map((t) => `- ${t}`)] : []),
      "",
      "## Files",
      "",
      ...files.map((f) => `- ${path.basename(f)}`),
      ""
    ].join("\n")
  )
  return { name: nb.name, files, ...result }
}

export interface CliOptions {
  readonly catalog: string
  readonly out: string
}

export const cliOptions = (argv = process.argv.slice(2)): CliOptions => {
  const { values } = parseArgs({ args: argv, options: { catalog: { type: "string" }, out: { type: "string" } }, allowPositionals: false })
  return { catalog: path.resolve(values.catalog ?? DEFAULT_CATALOG), out: path.resolve(values.out ?? DEFAULT_OUT) }
}

export const printRun = (r: NotebookRun, log: (line: string) => void = (l) => process.stdout.write(`${l}\n`)) => {
  log(`== ${r.name} (${r.files.length} files)`)
  for (const f of r.findings) log(`   ${f}`)
  for (const t of r.thin) log(`   [thin] ${t}`)
}

/** Runs the notebook when its file is the script node was started with. */
export const runIfMain = async (moduleUrl: string, nb: Notebook) => {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return
  const opts = cliOptions()
  const catalog = await openCatalog(opts.catalog)
  try {
    printRun(await runNotebook(nb, catalog, opts.out))
    process.stdout.write(`outputs in ${path.join(opts.out, nb.name)}\n`)
  } finally {
    catalog.close()
  }
}

/** Shared formatting for findings. */
export const pct = (v: number | null | undefined, digits = 1) => (v === null || v === undefined || !Number.isFinite(v) ? "n/a" : `${(v * 100).toFixed(digits)}%`)
export const round = (v: number | null | undefined, digits = 4) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 10 ** digits) / 10 ** digits)
