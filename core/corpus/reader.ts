/**
 * The contract every corpus reader implements.
 *
 * A reader gets one corpus file as a stream of (already gunzipped) bytes and yields rows for
 * the artifact tables, plus `skip` events for records it could not use. It never throws for a
 * bad record: it reports the record (file, position, reason) and goes on, so one malformed
 * document never stops a build. It throws only when the file as a whole is unreadable.
 *
 * Readers are plain async generators so they stay streaming (constant memory per file) and
 * testable without any Effect machinery; the ingest stage wraps them in Effect streams.
 */
import type { ReaderTableName, RowOf } from "../artifacts/tables.ts"
import type { readerTables } from "../artifacts/tables.ts"

export type RowEvent = {
  [T in ReaderTableName]: { readonly kind: "row"; readonly table: T; readonly row: RowOf<(typeof readerTables)[T]> }
}[ReaderTableName]

export interface SkipEvent {
  readonly kind: "skip"
  /** Corpus-relative path of the file. */
  readonly file: string
  /** Where in the file: document index, line number, byte offset or record id (human-readable). */
  readonly position: string
  readonly reason: string
}

export type ReaderEvent = RowEvent | SkipEvent

export interface CorpusFile {
  /** Corpus-relative path with forward slashes, e.g. uspto/grants/patentsview-2011_6.xml.gz */
  readonly path: string
  /** The file's content, gunzipped when the name ends in .gz. */
  readonly open: () => AsyncIterable<Uint8Array>
}

export type CorpusReader = (file: CorpusFile) => AsyncIterable<ReaderEvent>

export const row = <T extends ReaderTableName>(table: T, r: RowOf<(typeof readerTables)[T]>): ReaderEvent =>
  ({ kind: "row", table, row: r }) as ReaderEvent

export const skip = (file: string, position: string, reason: string): SkipEvent => ({ kind: "skip", file, position, reason })
