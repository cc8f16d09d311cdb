import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadTextEncoder } from "../../core/encoder/encoder.ts"
import { EncoderLoadError } from "../../core/encoder/errors.ts"
import { encodeOnnxModel, floatTensor, int64Tensor, node, onnx, tensorValue } from "../../core/encoder/onnx-builder.ts"
import { SentenceTransformerEncoder } from "../../core/encoder/sentence-transformer.ts"
import { wordPieceFromTokenizerJson } from "../../core/encoder/wordpiece.ts"

/** A tiny BERT-style WordPiece vocabulary. */
const vocabList = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "un", "##aff", "##able", ",", "!", "patent", "claim", "##s", "cafe"]
const vocab = Object.fromEntries(vocabList.map((t, i) => [t, i]))
const width = 8

/** The shape of a Hugging Face tokenizer.json as exported with BERT sentence-transformers. */
const tokenizerJson = {
  version: "1.0",
  truncation: null,
  padding: null,
  added_tokens: ["[PAD]", "[UNK]", "[CLS]", "[SEP]"].map((content) => ({ id: vocab[content], content, special: true })),
  normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: "BertPreTokenizer" },
  post_processor: {
    type: "TemplateProcessing",
    single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
    pair: [],
    special_tokens: {
      "[CLS]": { id: "[CLS]", ids: [vocab["[CLS]"]], tokens: ["[CLS]"] },
      "[SEP]": { id: "[SEP]", ids: [vocab["[SEP]"]], tokens: ["[SEP]"] }
    }
  },
  decoder: { type: "WordPiece", prefix: "##", cleanup: true },
  model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab }
}

/** Deterministic "random" embedding tables. */
const wordTable = Float32Array.from({ length: vocabList.length * width }, (_, i) => Math.sin(i * 12.9898) * 0.7)
const typeTable = Float32Array.from({ length: 2 * width }, (_, i) => Math.cos(i * 4.1414) * 0.3)
const row = (table: Float32Array, id: number) => Array.from(table.subarray(id * width, (id + 1) * width))

/** last_hidden_state = (word[input_ids] (+ type[token_type_ids])) · attention_mask. */
const tinyModel = (withTokenTypes: boolean) => {
  const inputs = ["input_ids", "attention_mask", ...(withTokenTypes ? ["token_type_ids"] : [])]
  return encodeOnnxModel({
    name: "tiny_bert",
    initializers: [floatTensor("word_embeddings", [vocabList.length, width], wordTable), floatTensor("type_embeddings", [2, width], typeTable), int64Tensor("axis_last", [1], [-1])],
    inputs: inputs.map((n) => tensorValue(n, "int64", ["batch", "seq"])),
    outputs: [tensorValue("last_hidden_state", "float", ["batch", "seq", width])],
    nodes: [
      node("Gather", ["word_embeddings", "input_ids"], withTokenTypes ? ["words"] : ["summed"], { axis: { i: 0 } }),
      ...(withTokenTypes
        ? [node("Gather", ["type_embeddings", "token_type_ids"], ["types"], { axis: { i: 0 } }), node("Add", ["words", "types"], ["summed"])]
        : []),
      node("Cast", ["attention_mask"], ["mask_float"], { to: { i: onnx.TensorProto.DataType.FLOAT } }),
      node("Unsqueeze", ["mask_float", "axis_last"], ["mask_column"]),
      node("Mul", ["summed", "mask_column"], ["last_hidden_state"])
    ]
  })
}

const normalize = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0))
  return v.map((x) => x / n)
}
const expectClose = (actual: ArrayLike<number>, expected: ArrayLike<number>) => {
  expect(actual.length).toBe(expected.length)
  for (let i = 0; i < expected.length; i++) expect(Math.abs(actual[i] - expected[i])).toBeLessThan(1e-5)
}

let root: string
let bertFolder: string
let plainFolder: string

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "st-encoder-"))
  // Folder 1: model.onnx at the top, with token_type_ids, default (mean) pooling.
  bertFolder = path.join(root, "tiny-bert")
  await fs.mkdir(bertFolder)
  await fs.writeFile(path.join(bertFolder, "model.onnx"), tinyModel(true))
  await fs.writeFile(path.join(bertFolder, "tokenizer.json"), JSON.stringify(tokenizerJson))
  // Folder 2: the Hugging Face layout onnx/model.onnx, no token types, CLS pooling, 6 tokens max.
  plainFolder = path.join(root, "tiny-plain")
  await fs.mkdir(path.join(plainFolder, "onnx"), { recursive: true })
  await fs.mkdir(path.join(plainFolder, "1_Pooling"))
  await fs.writeFile(path.join(plainFolder, "onnx", "model.onnx"), tinyModel(false))
  await fs.writeFile(path.join(plainFolder, "tokenizer.json"), JSON.stringify(tokenizerJson))
  await fs.writeFile(path.join(plainFolder, "1_Pooling", "config.json"), JSON.stringify({ pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }))
  await fs.writeFile(path.join(plainFolder, "sentence_bert_config.json"), JSON.stringify({ max_seq_length: 6 }))
})

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true })
})

describe("WordPiece tokenizer from tokenizer.json", () => {
  const tokenizer = wordPieceFromTokenizerJson(tokenizerJson)

  it("normalizes, splits punctuation, finds ## continuations and adds [CLS]/[SEP]", () => {
    const e = tokenizer.encode("Hello, unaffable Café world!")
    expect(e.tokens).toEqual(["[CLS]", "hello", ",", "un", "##aff", "##able", "cafe", "world", "!", "[SEP]"])
    expect(e.ids).toEqual([2, 4, 9, 6, 7, 8, 14, 5, 10, 3])
    expect(e.special).toEqual([true, false, false, false, false, false, false, false, false, true])
  })

  it("maps a word without a full piece cover to [UNK] and truncates to the maximum length", () => {
    expect(tokenizer.encode("patents xyzzy claims").tokens).toEqual(["[CLS]", "patent", "##s", "[UNK]", "claim", "##s", "[SEP]"])
    const short = wordPieceFromTokenizerJson(tokenizerJson, 5)
    expect(short.encode("hello world patent claim").tokens).toEqual(["[CLS]", "hello", "world", "patent", "[SEP]"])
  })

  it("rejects tokenizers it cannot reproduce", () => {
    expect(() => wordPieceFromTokenizerJson({ ...tokenizerJson, model: { type: "BPE", vocab: {}, merges: [] } })).toThrow(/not WordPiece/)
    expect(() => wordPieceFromTokenizerJson({ ...tokenizerJson, pre_tokenizer: { type: "Metaspace" } })).toThrow(/pre-tokenizer/)
  })
})

describe("sentence-transformers ONNX export", () => {
  it("loads through the common loader and mean-pools with the attention mask", async () => {
    const encoder = await loadTextEncoder(bertFolder)
    expect(encoder).toBeInstanceOf(SentenceTransformerEncoder)
    expect(encoder.kind).toBe("sentence-transformer")
    expect(encoder.dimensions).toBe(width)

    const ids = [2, 4, 9, 6, 7, 8, 14, 5, 10, 3]
    const mean = Array.from({ length: width }, (_, c) => ids.reduce((s, id) => s + row(wordTable, id)[c] + row(typeTable, 0)[c], 0) / ids.length)
    const [vector] = await encoder.encode(["Hello, unaffable Café world!"])
    expectClose(vector, normalize(mean))
    await encoder.close()
  })

  it("pads a batch without letting padding into the pooled vectors", async () => {
    const encoder = await loadTextEncoder(bertFolder)
    const texts = ["hello", "Hello, unaffable Café world!", "patent claims"]
    const batch = await encoder.encode(texts)
    for (const [i, t] of texts.entries()) expectClose(batch[i], (await encoder.encode([t]))[0])
    const helloIds = [2, 4, 3]
    const expected = Array.from({ length: width }, (_, c) => helloIds.reduce((s, id) => s + row(wordTable, id)[c] + row(typeTable, 0)[c], 0) / 3)
    expectClose(batch[0], normalize(expected))
    await encoder.close()
  })

  it("gives per-word-piece unit vectors for late interaction, without special tokens", async () => {
    const encoder = await loadTextEncoder(bertFolder)
    const t = await encoder.encodeTokens("unaffable world")
    expect(t.tokens).toEqual(["un", "##aff", "##able", "world"])
    expect(t.vectors).toHaveLength(4)
    expectClose(t.vectors[3], normalize(row(wordTable, vocab.world).map((x, c) => x + row(typeTable, 0)[c])))
    await encoder.close()
  })

  it("reads onnx/model.onnx, CLS pooling and max_seq_length, and feeds no token_type_ids the model lacks", async () => {
    const encoder = await loadTextEncoder(plainFolder)
    expect((encoder as SentenceTransformerEncoder).pooling).toBe("cls")
    expect((encoder as SentenceTransformerEncoder).tokenizer.maxLength).toBe(6)
    const [vector] = await encoder.encode(["patent claims world"])
    expectClose(vector, normalize(row(wordTable, vocab["[CLS]"])))
    await encoder.close()
  })

  it("names the folder and the problem when a folder cannot be used", async () => {
    const empty = path.join(root, "empty")
    await fs.mkdir(empty)
    await expect(loadTextEncoder(empty)).rejects.toBeInstanceOf(EncoderLoadError)
    await fs.writeFile(path.join(empty, "tokenizer.json"), JSON.stringify(tokenizerJson))
    await expect(loadTextEncoder(empty)).rejects.toThrow(/no model\.onnx/)
  })
})
