/**
 * Streaming access to the elements of a top-level JSON array (the shape of every ppubs, PEDS
 * and office-action file). stream-json assembles one element at a time, so a 100 MB file is
 * never held as one string or one parsed array; memory stays flat in the number of records.
 *
 * `readJsonRecords` adds the per-record error policy every JSON reader shares: a record that
 * cannot be used becomes one `skip` event and the file goes on. A record's events are built
 * completely before any is yielded, so a record that fails half-way leaves no partial rows.
 */
import { Readable, pipeline } from "node:stream"
import { streamArray } from "stream-json/streamers/stream-array.js"
import { type CorpusFile, type ReaderEvent, skip } from "../../../core/corpus/reader.ts"
import { RecordSkip } from "./json-fields.ts"

export interface ArrayElement {
  /** 0-based position of the element in the array. */
  readonly index: number
  readonly value: unknown
}

/** The elements of the file's top-level array, one at a time. Throws if the file is not a JSON array. */
export async function* jsonArrayElements(file: CorpusFile): AsyncGenerator<ArrayElement> {
  // Only packed values are needed by the assembler; not streaming string chunks saves work on long text fields.
  const elements = streamArray.withParserAsStream({ streamValues: false, streamKeys: false })
  pipeline(Readable.from(file.open()), elements, (err) => {
    if (err) elements.destroy(err)
  })
  for await (const item of elements as AsyncIterable<{ key: number; value: unknown }>) {
    yield { index: item.key, value: item.value }
  }
}

/**
 * Runs `toEvents` on every array element. `describe` names the record for skip reports
 * (e.g. "record 17 (applId 15695467)"); it must not throw on arbitrary input.
 */
export async function* readJsonRecords(
  file: CorpusFile,
  describe: (value: unknown, index: number) => string,
  toEvents: (value: Record<string, unknown>, index: number) => ReaderEvent[]
): AsyncGenerator<ReaderEvent> {
  for await (const { index, value } of jsonArrayElements(file)) {
    let events: ReaderEvent[]
    try {
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw new RecordSkip("record is not a JSON object")
      events = toEvents(value as Record<string, unknown>, index)
    } catch (e) {
      const reason = e instanceof RecordSkip ? e.reason : `unreadable record: ${e instanceof Error ? e.message : String(e)}`
      yield skip(file.path, safeDescribe(describe, value, index), reason)
      continue
    }
    yield* events
  }
}

const safeDescribe = (describe: (value: unknown, index: number) => string, value: unknown, index: number) => {
  try {
    return describe(value, index)
  } catch {
    return `record ${index}`
  }
}

/** "record 17 (applId 15695467)" from the first present id field, or "record 17". */
export const describeBy =
  (label: string, pick: (r: Record<string, unknown>) => unknown) =>
  (value: unknown, index: number): string => {
    const id = value !== null && typeof value === "object" && !Array.isArray(value) ? pick(value as Record<string, unknown>) : undefined
    const shown = Array.isArray(id) ? id[0] : id
    return (typeof shown === "string" && shown.trim() !== "") || typeof shown === "number" ? `record ${index} (${label} ${shown})` : `record ${index}`
  }
