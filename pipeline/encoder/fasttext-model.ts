/**
 * Reads a fastText model file (.bin, format version 12 as fastText 0.9.x writes it): the
 * training arguments, the dictionary (words in row order with their counts) and the input
 * matrix (words then n-gram buckets), which is all the subword encoder needs to serve.
 * Quantized models (.ftz) and pruned dictionaries are refused: their rows are not plain.
 */
const fastTextMagic = 793712314
const fastTextVersion = 12

export interface FastTextModelFile {
  readonly args: {
    readonly dim: number
    readonly ws: number
    readonly epoch: number
    readonly minCount: number
    readonly neg: number
    readonly wordNgrams: number
    readonly loss: number
    readonly model: number
    readonly bucket: number
    readonly minn: number
    readonly maxn: number
    readonly lrUpdateRate: number
    readonly t: number
  }
  readonly words: ReadonlyArray<string>
  readonly counts: ReadonlyArray<number>
  /** Tokens the trainer read (all words, kept or not, plus line ends). */
  readonly tokens: number
  /** (words + bucket) × dim, row-major. */
  readonly inputMatrix: Float32Array
  readonly rows: number
}

export const readFastTextModel = (bytes: Uint8Array): FastTextModelFile => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  const i32 = () => {
    const v = view.getInt32(at, true)
    at += 4
    return v
  }
  const i64 = () => {
    const v = Number(view.getBigInt64(at, true))
    at += 8
    return v
  }
  const f64 = () => {
    const v = view.getFloat64(at, true)
    at += 8
    return v
  }
  if (i32() !== fastTextMagic) throw new Error("not a fastText model file (bad magic number)")
  const version = i32()
  if (version !== fastTextVersion) throw new Error(`unsupported fastText model version ${version}`)
  const args = {
    dim: i32(),
    ws: i32(),
    epoch: i32(),
    minCount: i32(),
    neg: i32(),
    wordNgrams: i32(),
    loss: i32(),
    model: i32(),
    bucket: i32(),
    minn: i32(),
    maxn: i32(),
    lrUpdateRate: i32(),
    t: f64()
  }
  const size = i32()
  const nwords = i32()
  i32() // labels
  const tokens = i64()
  const pruned = i64()
  if (pruned > 0) throw new Error("pruned fastText dictionaries are not supported")
  const decoder = new TextDecoder()
  const words: string[] = []
  const counts: number[] = []
  for (let e = 0; e < size; e++) {
    const end = bytes.indexOf(0, at)
    if (end < 0) throw new Error("truncated fastText dictionary")
    const word = decoder.decode(bytes.subarray(at, end))
    at = end + 1
    const count = i64()
    const type = bytes[at++]
    if (type === 0 && e < nwords) {
      words.push(word)
      counts.push(count)
    }
  }
  if (words.length !== nwords) throw new Error(`fastText dictionary holds ${words.length} words, header says ${nwords}`)
  if (bytes[at++] !== 0) throw new Error("quantized fastText models are not supported")
  const rows = i64()
  const cols = i64()
  if (cols !== args.dim || rows !== nwords + args.bucket) throw new Error(`input matrix ${rows} × ${cols} does not match the dictionary and arguments`)
  // Copied out: the file's float data need not be 4-byte aligned.
  const inputMatrix = new Float32Array(rows * cols)
  new Uint8Array(inputMatrix.buffer).set(bytes.subarray(at, at + rows * cols * 4))
  return { args, words, counts, tokens, inputMatrix, rows }
}
