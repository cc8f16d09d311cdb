/**
 * Runs every notebook against one catalog and prints what each found:
 *
 *   node --import tsx notebooks/run-all.ts [--catalog artifacts/current/catalog.duckdb] [--out notebooks/out]
 *
 * Writes `<out>/<notebook>/…` per notebook plus `<out>/summary.json` (files, findings, thin-data
 * warnings, failures) and `<out>/README.md` (the same as an index). A failing notebook does
 * not stop the others; the exit status is 1 when any failed.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { notebook as citationFlows } from "./citation-flows.ts"
import { notebook as cpcRoutingEntropy } from "./cpc-routing-entropy.ts"
import { notebook as examinerAllowance } from "./examiner-allowance-by-art-unit.ts"
import { cliOptions, openCatalog, printRun, runNotebook, type Notebook, type NotebookRun } from "./lib/notebook.ts"
import { notebook as patentSpaceDensity } from "./patent-space-density.ts"

export const notebooks: ReadonlyArray<Notebook> = [examinerAllowance, cpcRoutingEntropy, citationFlows, patentSpaceDensity]

export interface Summary {
  readonly catalog: string
  readonly ran_at: string
  readonly notebooks: ReadonlyArray<Omit<NotebookRun, "files"> & { readonly files: ReadonlyArray<string> }>
  readonly failed: ReadonlyArray<{ readonly name: string; readonly error: string }>
}

export const runAll = async (catalogFile: string, outDir: string, log: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<Summary> => {
  const catalog = await openCatalog(catalogFile)
  await fs.mkdir(outDir, { recursive: true })
  const runs: NotebookRun[] = []
  const failed: Array<{ name: string; error: string }> = []
  try {
    for (const nb of notebooks) {
      try {
        const r = await runNotebook(nb, catalog, outDir)
        runs.push(r)
        printRun(r, log)
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e)
        failed.push({ name: nb.name, error })
        log(`== ${nb.name} FAILED: ${error}`)
      }
    }
  } finally {
    catalog.close()
  }
  const summary: Summary = {
    catalog: catalogFile,
    ran_at: new Date().toISOString(),
    // Paths relative to the out folder, so the summary survives moving it.
    notebooks: runs.map((r) => ({ ...r, files: r.files.map((f) => path.relative(outDir, f)) })),
    failed
  }
  await fs.writeFile(path.join(outDir, "summary.json"), JSON.stringify(summary, null, 2) + "\n")
  await fs.writeFile(
    path.join(outDir, "README.md"),
    [
      "# Notebook outputs",
      "",
      `Catalog \`${catalogFile}\`, run ${summary.ran_at}.`,
      "",
      ...runs.flatMap((r) => [`## [${r.name}](${r.name}/README.md)`, "", ...r.findings.map((f) => `- ${f}`), ...r.thin.map((t) => `- _Thin:_ ${t}`), ""]),
      ...(failed.length ? ["## Failed", "", ...failed.map((f) => `- ${f.name}: ${f.error}`), ""] : [])
    ].join("\n")
  )
  log(`${runs.length} notebook(s) ran, ${failed.length} failed; outputs in ${outDir}`)
  return summary
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const opts = cliOptions()
  const summary = await runAll(opts.catalog, opts.out).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(2)
  })
  if (summary.failed.length) process.exit(1)
}
