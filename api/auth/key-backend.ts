/**
 * What a key store does, whichever holds the records: STATE_DIR/keys.json (api/auth/file-keys.ts)
 * or PostgreSQL (api/auth/pg-keys.ts). Records carry salted hashes only; the raw key of `create`
 * and `rotate` is returned once and kept nowhere.
 */
import type { KeyOptions } from "./issue.ts"
import type { KeyRecord } from "./key-file.ts"

export type KeyStatus = KeyRecord["status"]

export interface KeyBackend {
  readonly kind: "file" | "postgresql"
  /** The record with this public handle, if any; in force on the next request after any change. */
  readonly findByHandle: (handle: string) => Promise<KeyRecord | undefined>
  /** Issues a key; resolves to the raw key. Throws KeyRequestInvalid for options that break a rule. */
  readonly create: (options: KeyOptions, nowMs: number) => Promise<string>
  /** Throws KeyRequestInvalid for an unknown handle. */
  readonly setStatus: (handle: string, status: KeyStatus) => Promise<void>
  /** Replaces a key (same lineage, so the same quota); the old one is revoked. Resolves to the raw new key. */
  readonly rotate: (handle: string, nowMs: number) => Promise<string>
  /** Every record, oldest first. */
  readonly list: () => Promise<ReadonlyArray<KeyRecord>>
}
