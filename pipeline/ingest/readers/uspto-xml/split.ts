/**
 * Splits a USPTO bulk file into its documents while streaming.
 *
 * Weekly files are many XML documents concatenated, each starting with its own `<?xml`
 * declaration (and DOCTYPE), so the file as a whole is not well-formed XML. The splitter scans
 * the byte stream for declarations and hands out one document at a time; only the current
 * document is held. Documents whose root is not wanted (sequence listings can run to hundreds
 * of MB) are recognised from their first bytes and dropped without being buffered.
 */

export interface RawDocument {
  /** 1-based position of the document in the file. */
  readonly index: number
  /** Byte offset of the document's first byte in the (gunzipped) file. */
  readonly byteOffset: number
  /** Root element name (from the DOCTYPE or the first tag); undefined when none was found. */
  readonly root: string | undefined
  /** The document's bytes; undefined when the root was not wanted. */
  readonly bytes: Buffer | undefined
}

const DECL = Buffer.from("<?xml")
const SNIFF_BYTES = 2048

/** Root element name from a document's first bytes: the DOCTYPE name, else the first start tag. */
export const sniffRoot = (head: string): string | undefined =>
  /<!DOCTYPE\s+([A-Za-z_][\w.:-]*)/.exec(head)?.[1] ?? /<([A-Za-z_][\w.:-]*)/.exec(head)?.[1]

/** Whether the bytes read as latin1 are all what String.prototype.trim removes (tab to CR, space, NBSP), without decoding them. */
const isBlank = (bytes: Buffer) => {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    if (!(b === 0x20 || (b >= 0x09 && b <= 0x0d) || b === 0xa0)) return false
  }
  return true
}

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d

export async function* splitDocuments(
  chunks: AsyncIterable<Uint8Array>,
  wanted: (root: string | undefined) => boolean = () => true
): AsyncGenerator<RawDocument> {
  let parts: Buffer[] = []
  let held = 0
  let docStart = 0 // absolute offset of the current document
  let root: string | undefined
  let sniffed = false
  let keep = true
  let index = 0
  let base = 0 // absolute offset of buf[0]
  let carry: Buffer = Buffer.alloc(0) // held-back bytes that may begin a declaration

  const sniff = (force: boolean) => {
    if (sniffed || (!force && held < SNIFF_BYTES)) return
    root = sniffRoot(Buffer.concat(parts).subarray(0, 64 * 1024).toString("latin1"))
    sniffed = true
    keep = wanted(root)
    if (!keep) parts = []
  }
  const append = (b: Buffer) => {
    if (!keep || b.length === 0) return
    parts.push(b)
    held += b.length
    sniff(false)
  }
  /** Ends the current document at absolute offset `end`; undefined for whitespace between documents. */
  const finish = (end: number): RawDocument | undefined => {
    sniff(true)
    let doc: RawDocument | undefined
    if (!keep) doc = { index: ++index, byteOffset: docStart, root, bytes: undefined }
    else {
      const bytes = Buffer.concat(parts)
      if (!isBlank(bytes)) doc = { index: ++index, byteOffset: docStart, root, bytes }
    }
    parts = []
    held = 0
    docStart = end
    root = undefined
    sniffed = false
    keep = true
    return doc
  }

  for await (const chunk of chunks) {
    const data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const buf = carry.length > 0 ? Buffer.concat([carry, data]) : data
    let pos = 0
    for (let from = 0; ; ) {
      const at = buf.indexOf(DECL, from)
      if (at < 0 || at + DECL.length >= buf.length) break
      from = at + 1
      if (!isSpace(buf[at + DECL.length]) || base + at === docStart) continue
      append(buf.subarray(pos, at))
      pos = at
      const doc = finish(base + at)
      if (doc) yield doc
    }
    // Keep the last bytes back: a declaration may straddle this chunk and the next.
    const holdFrom = Math.max(pos, buf.length - DECL.length)
    append(buf.subarray(pos, holdFrom))
    carry = Buffer.from(buf.subarray(holdFrom))
    base += holdFrom
  }
  append(carry)
  const last = finish(base + carry.length)
  if (last) yield last
}
