/**
 * Any sentence-transformers ONNX export as the hub's encoder: a folder holding model.onnx (or
 * onnx/model.onnx) and the Hugging Face tokenizer.json, optionally 1_Pooling/config.json
 * (pooling mode) and sentence_bert_config.json (max_seq_length). Token states are pooled with
 * the attention mask (mean by default, as sentence-transformers does) and L2-normalised.
 */
import ort from "onnxruntime-node"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { EncoderSessionOptions, PatentTextEncoder, TokenVectors } from "./encoder.ts"
import { EncoderLoadError } from "./errors.ts"
import { sessionOptions } from "./session.ts"
import { type WordPieceEncoding, type WordPieceTokenizer, wordPieceFromTokenizerJson } from "./wordpiece.ts"

export type PoolingMode = "mean" | "cls" | "max"

const tokenOutputNames = ["last_hidden_state", "token_embeddings"]
const pooledOutputNames = ["sentence_embedding", "pooler_output"]
const batchSize = 32

const readJson = async (file: string): Promise<any | undefined> => {
  try {
    return JSON.parse(await fs.readFile(file, "utf8"))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  }
}

const firstExisting = async (files: ReadonlyArray<string>) => {
  for (const f of files) {
    if (await fs.stat(f).then((s) => s.isFile(), () => false)) return f
  }
  return undefined
}

const poolingOf = (config: Record<string, unknown> | undefined): PoolingMode =>
  config?.pooling_mode_cls_token ? "cls" : config?.pooling_mode_max_tokens ? "max" : "mean"

const l2Normalize = (v: Float32Array) => {
  let n = 0
  for (const x of v) n += x * x
  n = Math.max(Math.sqrt(n), 1e-12)
  for (let i = 0; i < v.length; i++) v[i] /= n
  return v
}

export class SentenceTransformerEncoder implements PatentTextEncoder {
  readonly kind = "sentence-transformer"

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly tokenizer: WordPieceTokenizer,
    readonly pooling: PoolingMode,
    /** Token-level output (pooled here) or, failing that, an already pooled one. */
    private readonly output: { readonly name: string; readonly tokenLevel: boolean },
    private readonly idType: "int64" | "int32",
    readonly dimensions: number
  ) {}

  static async load(folder: string, options: EncoderSessionOptions = {}): Promise<SentenceTransformerEncoder> {
    const fail = (reason: string) => new EncoderLoadError({ folder, reason })
    const modelFile = await firstExisting([path.join(folder, "model.onnx"), path.join(folder, "onnx", "model.onnx")])
    if (!modelFile) throw fail("no model.onnx (nor onnx/model.onnx)")
    let tokenizer: WordPieceTokenizer
    let pooling: PoolingMode
    try {
      const json = await readJson(path.join(folder, "tokenizer.json"))
      if (!json) throw new Error("tokenizer.json is missing")
      const stConfig = await readJson(path.join(folder, "sentence_bert_config.json"))
      tokenizer = wordPieceFromTokenizerJson(json, Number(stConfig?.max_seq_length) || 512)
      pooling = poolingOf(await readJson(path.join(folder, "1_Pooling", "config.json")))
    } catch (e) {
      throw fail((e as Error).message)
    }
    let session: ort.InferenceSession
    try {
      session = await ort.InferenceSession.create(modelFile, sessionOptions(options))
    } catch (e) {
      throw fail(`${path.relative(folder, modelFile)}: ${(e as Error).message}`)
    }
    for (const required of ["input_ids", "attention_mask"]) {
      if (!session.inputNames.includes(required)) throw fail(`the model has no ${required} input`)
    }
    const tokenOutput = session.outputNames.find((n) => tokenOutputNames.includes(n))
    const pooledOutput = session.outputNames.find((n) => pooledOutputNames.includes(n))
    const output = tokenOutput
      ? { name: tokenOutput, tokenLevel: true }
      : pooledOutput
        ? { name: pooledOutput, tokenLevel: false }
        : { name: session.outputNames[0], tokenLevel: true }
    const idMeta = session.inputMetadata.find((m) => m.name === "input_ids")
    const idType = idMeta?.isTensor && idMeta.type === "int32" ? "int32" : "int64"
    const probe = new SentenceTransformerEncoder(session, tokenizer, pooling, output, idType, 0)
    // The width is whatever the model produces: ask it once.
    const [vector] = await probe.encode(["patent"])
    return new SentenceTransformerEncoder(session, tokenizer, pooling, output, idType, vector.length)
  }

  async encode(texts: ReadonlyArray<string>): Promise<Float32Array[]> {
    const out: Float32Array[] = []
    for (let start = 0; start < texts.length; start += batchSize) {
      const encodings = texts.slice(start, start + batchSize).map((t) => this.tokenizer.encode(t))
      const { tensor, seq } = await this.run(encodings)
      const data = tensor.data as Float32Array
      if (!this.output.tokenLevel) {
        const d = tensor.dims[1]
        encodings.forEach((_, b) => out.push(l2Normalize(data.slice(b * d, (b + 1) * d))))
        continue
      }
      const d = tensor.dims[2]
      encodings.forEach((e, b) => out.push(l2Normalize(this.pool(data, b, seq, d, e.ids.length))))
    }
    return out
  }

  async encodeTokens(text: string): Promise<TokenVectors> {
    return (await this.encodeTokensBatch([text]))[0]
  }

  async encodeTokensBatch(texts: ReadonlyArray<string>): Promise<TokenVectors[]> {
    if (!this.output.tokenLevel) throw new Error(`the model exposes only pooled output ${this.output.name}`)
    const out: TokenVectors[] = []
    for (let start = 0; start < texts.length; start += batchSize) {
      const encodings = texts.slice(start, start + batchSize).map((t) => this.tokenizer.encode(t))
      const { tensor, seq } = await this.run(encodings)
      const data = tensor.data as Float32Array
      const d = tensor.dims[2]
      for (const [b, e] of encodings.entries()) {
        // Special tokens ([CLS], [SEP]) are not text: late interaction matches words only.
        const keep = e.tokens.map((_, i) => i).filter((i) => !e.special[i])
        out.push({
          tokens: keep.map((i) => e.tokens[i]),
          vectors: keep.map((i) => l2Normalize(data.slice((b * seq + i) * d, (b * seq + i + 1) * d))),
          weights: new Float32Array(keep.length).fill(1)
        })
      }
    }
    return out
  }

  close(): Promise<void> {
    return this.session.release()
  }

  /** Pools positions 0..length-1 of batch row b (the attention mask is 1 exactly there). */
  private pool(data: Float32Array, b: number, seq: number, d: number, length: number): Float32Array {
    const v = new Float32Array(d)
    if (this.pooling === "cls") {
      v.set(data.subarray(b * seq * d, b * seq * d + d))
      return v
    }
    if (this.pooling === "max") v.fill(-Infinity)
    const sum = new Float64Array(d)
    for (let i = 0; i < length; i++) {
      const row = (b * seq + i) * d
      for (let c = 0; c < d; c++) {
        if (this.pooling === "max") v[c] = Math.max(v[c], data[row + c])
        else sum[c] += data[row + c]
      }
    }
    if (this.pooling === "mean") for (let c = 0; c < d; c++) v[c] = sum[c] / Math.max(length, 1)
    return v
  }

  private async run(encodings: ReadonlyArray<WordPieceEncoding>) {
    const seq = Math.max(1, ...encodings.map((e) => e.ids.length))
    const n = encodings.length * seq
    const wide = this.idType === "int64"
    const ids = wide ? new BigInt64Array(n) : new Int32Array(n)
    const mask = wide ? new BigInt64Array(n) : new Int32Array(n)
    encodings.forEach((e, b) => {
      for (let i = 0; i < seq; i++) {
        const id = i < e.ids.length ? e.ids[i] : this.tokenizer.padId
        const m = i < e.ids.length ? 1 : 0
        ids[b * seq + i] = (wide ? BigInt(id) : id) as never
        mask[b * seq + i] = (wide ? BigInt(m) : m) as never
      }
    })
    const dims = [encodings.length, seq]
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor(this.idType, ids, dims),
      attention_mask: new ort.Tensor(this.idType, mask, dims)
    }
    if (this.session.inputNames.includes("token_type_ids")) {
      feeds.token_type_ids = new ort.Tensor(this.idType, wide ? new BigInt64Array(n) : new Int32Array(n), dims)
    }
    const result = await this.session.run(feeds, [this.output.name])
    return { tensor: result[this.output.name], seq }
  }
}
