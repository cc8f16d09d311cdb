/**
 * Streaming access to the elements of a top-level JSON array (the shape of every ppubs, PEDS
 * and office-action file). The bytes are split into elements as they stream (jsonArrayTexts) and
 * each element is parsed alone by JSON.parse, so a 100 MB file is never held as one string or one
 * parsed array; memory stays flat in the number of records. (stream-json's tokenizer did the same
 * in JavaScript at several times the CPU.)
 *
 * `readJsonRecords` adds the per-record error policy every JSON reader shares: a record that
 * cannot be used becomes one `skip` event and the file goes on. A record's events are built
 * completely before any is yielded, so a record that fails half-way leaves no partial rows.
 */
import { type CorpusFile, type ReaderEvent, skip } from "../../../core/corpus/reader.ts"
import { RecordSkip } from "./json-fields.ts"

export interface ArrayElement {
  /** 0-based position of the element in the array. */
  readonly index: number
  readonly value: unknown
}

/** The elements of the file's top-level array, one at a time. Throws if the file is not a JSON array. */
export async function* jsonArrayElements(file: CorpusFile): AsyncGenerator<ArrayElement> {
  let index = 0
  for await (const text of jsonArrayTexts(file.open())) yield { index: index++, value: JSON.parse(text.toString("utf8")) }
}

/** A UTF-8 byte order mark, allowed before the array. */
const BOM = [0xef, 0xbb, 0xbf]

/**
 * The texts of a top-level JSON array's elements, one Buffer each, found by scanning the bytes for
 * the commas and the closing bracket outside strings and brackets. No value is parsed here: the
 * caller parses each element with JSON.parse (native), which is what makes this cheaper than a
 * JavaScript tokenizer. Throws when the bytes are not one JSON array (an unterminated array,
 * something after it, a missing element); an element that is not valid JSON throws in JSON.parse.
 */
export async function* jsonArrayTexts(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  // Where we are: before the array, inside it (expecting an element, in one, after one), after it.
  let state = "before" as "before" | "open" | "element" | "comma" | "done"
  let depth = 0 // brackets and braces open inside the current element
  let inString = false
  let escaped = false
  let parts: Buffer[] = []
  let start = 0 // start of the current element in the current chunk
  let offset = 0 // bytes before the current chunk
  const fail = (what: string, at: number): never => {
    throw new SyntaxError(`not a JSON array: ${what} at byte ${offset + at}`)
  }
  for await (const chunk of chunks) {
    const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const n = b.length
    let backslash = -1 // the next backslash at or after i (n: none), found lazily
    start = 0
    for (let i = 0; i < n; i++) {
      if (state === "element") {
        if (escaped) {
          escaped = false
          continue
        }
        if (inString) {
          // Jump to the string's closing quote, or to the backslash before it.
          const quote = b.indexOf(0x22, i)
          if (backslash < i) backslash = (b.indexOf(0x5c, i) + n + 1) % (n + 1)
          if (backslash < (quote < 0 ? n : quote)) {
            i = backslash
            escaped = true
          } else if (quote < 0) i = n
          else {
            i = quote
            inString = false
          }
          continue
        }
        const c = b[i]
        if (c === 0x22) inString = true
        else if (c === 0x7b || c === 0x5b) depth++
        else if (c === 0x7d || c === 0x5d) {
          if (depth > 0) depth--
          else {
            // The array's closing bracket ends the last element.
            parts.push(b.subarray(start, i))
            yield parts.length === 1 ? parts[0] : Buffer.concat(parts)
            parts = []
            state = "done"
          }
        } else if (c === 0x2c && depth === 0) {
          parts.push(b.subarray(start, i))
          yield parts.length === 1 ? parts[0] : Buffer.concat(parts)
          parts = []
          state = "comma"
        }
        continue
      }
      const c = b[i]
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue
      switch (state) {
        case "before":
          if (offset + i < 3 && c === BOM[offset + i]) break
          if (c !== 0x5b) fail("no opening bracket", i)
          state = "open"
          break
        case "open":
        case "comma":
          if (c === 0x5d) {
            if (state === "comma") fail("a comma before the closing bracket", i)
            state = "done"
            break
          }
          if (c === 0x2c) fail("a missing element", i)
          state = "element"
          start = i
          i-- // the element's first byte is scanned as part of it
          break
        case "done":
          fail("bytes after the array", i)
      }
    }
    if (state === "element") parts.push(b.subarray(start))
    offset += n
  }
  if (state !== "done") fail("the array is not closed", 0)
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
