/**
 * Plain tab-separated files with a header row (never quoted: their text contains quotes), read
 * as a stream of named records. A header lacking a required column, or a row with the wrong
 * number of fields, becomes a skip event; the caller turns the rest into rows.
 */
import { parse } from "csv-parse"
import { Readable } from "node:stream"
import { type CorpusFile, type SkipEvent, skip } from "../../../core/corpus/reader.ts"

export interface TsvRecord {
  /** Human-readable position for skip events ("line 12"). */
  readonly at: string
  /** A column's trimmed value ("" when absent). */
  readonly field: (name: string) => string
  /** A column's trimmed value, or null when empty. */
  readonly optional: (name: string) => string | null
}

export async function* tsvRecords(file: CorpusFile, columns: ReadonlyArray<string>): AsyncGenerator<TsvRecord | SkipEvent> {
  const parser = parse({ delimiter: "\t", quote: false, bom: true, info: true, relax_column_count: true, skip_empty_lines: true })
  Readable.from(file.open()).pipe(parser)
  let header: string[] | undefined
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const at = `line ${info.lines}`
    if (!header) {
      header = record.map((h) => h.trim().toLowerCase())
      if (!columns.every((c) => header!.includes(c))) {
        yield skip(file.path, at, `header lacks ${columns.join(", ")}`)
        return
      }
      continue
    }
    if (record.length !== header.length) {
      yield skip(file.path, at, `expected ${header.length} fields, found ${record.length}`)
      continue
    }
    const cols = header
    const field = (name: string) => (record[cols.indexOf(name)] ?? "").trim()
    yield { at, field, optional: (name) => (field(name) === "" ? null : field(name)) }
  }
}

export const isSkip = (r: TsvRecord | SkipEvent): r is SkipEvent => "kind" in r && r.kind === "skip"
