/** Shared output of the benchmarks: an aligned table on stdout and a JSON file in bench/results/. */
import * as fs from "node:fs/promises"
import * as path from "node:path"

export type Column<R> = readonly [header: string, cell: (row: R) => string]

export const printTable = <R>(title: string, rows: ReadonlyArray<R>, columns: ReadonlyArray<Column<R>>) => {
  const cells = rows.map((r) => columns.map(([, f]) => f(r)))
  const widths = columns.map(([h], i) => Math.max(h.length, ...cells.map((c) => c[i].length)))
  const line = (vals: string[]) => vals.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ")
  process.stdout.write(`\n${title}\n${line(columns.map(([h]) => h))}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n`)
  for (const c of cells) process.stdout.write(`${line(c)}\n`)
}

export const writeResult = async (name: string, data: unknown) => {
  const dir = path.resolve("bench/results")
  await fs.mkdir(dir, { recursive: true })
  const file = path.join(dir, `${name}.json`)
  await fs.writeFile(file, JSON.stringify({ benchmark: name, at: new Date().toISOString(), ...(data as object) }, null, 2) + "\n")
  process.stdout.write(`→ ${path.relative(process.cwd(), file)}\n`)
}
