/**
 * Writes a trained encoder (subword or LSA) as an encoder folder. For LSA as an encoder folder under the given version directory:
 * encoder/model.onnx (the graph with the term-vector table), encoder/vocab.json (terms, document
 * frequencies, idf), encoder/tokenizer.json (tokeniser and weighting settings) and
 * encoder/training.json (what it was trained on, for the manifest and for analysts).
 */
import { output } from "../stages/outputs.ts"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { lsaEncoderFiles } from "../../core/encoder/lsa-format.ts"
import { buildLsaEncoderModel } from "../../core/encoder/onnx-export.ts"
import { subwordEncoderFiles, type SubwordVocabularyFile } from "../../core/encoder/subword-format.ts"
import { buildSubwordEncoderModel } from "../../core/encoder/subword-onnx.ts"
import type { TrainedSubwordEncoder } from "./subword-train.ts"
import type { TrainedLsaEncoder } from "./train.ts"

export const encoderFolder = "encoder"
/** The encoder folder as an output handle (pipeline/stages/outputs.ts) for the stages that load the model. */
export const encoderModel = output("encoder", encoderFolder)

export interface SavedLsaEncoder {
  /** Written files, relative to the version directory. */
  readonly files: ReadonlyArray<string>
  readonly modelBytes: number
}

export const saveLsaEncoder = async (versionDir: string, model: TrainedLsaEncoder, into = encoderFolder): Promise<SavedLsaEncoder> => {
  const folder = path.join(versionDir, into)
  await fs.mkdir(folder, { recursive: true })
  const onnxModel = buildLsaEncoderModel(model.termVectors, model.vocabulary.rows, model.settings.dimensions, {
    kind: "patent-lsa",
    rank: String(model.settings.rank),
    documents: String(model.stats.documents)
  })
  const training = {
    ...model.stats,
    vocabulary: model.vocabulary.terms.length,
    dimensions: model.settings.dimensions,
    rank: model.settings.rank,
    singularValues: Array.from(model.singularValues)
  }
  const files: Array<[string, string | Uint8Array]> = [
    [lsaEncoderFiles.model, onnxModel],
    [lsaEncoderFiles.vocabulary, JSON.stringify(model.vocabulary.toJSON())],
    [lsaEncoderFiles.settings, JSON.stringify(model.settings, null, 2)],
    ["training.json", JSON.stringify(training, null, 2)]
  ]
  for (const [name, content] of files) await fs.writeFile(path.join(folder, name), content)
  return { files: files.map(([name]) => `${into}/${name}`), modelBytes: onnxModel.byteLength }
}

/**
 * A trained subword encoder: encoder/model.onnx (embedding bag over the input matrix, with a
 * zero padding row in front), encoder/vocab.json (dictionary words in row order, their counts),
 * encoder/tokenizer.json (n-gram and pooling settings), encoder/training.json.
 */
export const saveSubwordEncoder = async (versionDir: string, model: TrainedSubwordEncoder, into = encoderFolder): Promise<SavedLsaEncoder> => {
  const folder = path.join(versionDir, into)
  await fs.mkdir(folder, { recursive: true })
  const d = model.settings.dimensions
  const table = new Float32Array(model.inputMatrix.length + d)
  table.set(model.inputMatrix, d)
  const onnxModel = buildSubwordEncoderModel(table, table.length / d, d, model.commonComponent, {
    kind: "patent-subword",
    words: String(model.settings.nwords),
    bucket: String(model.settings.bucket)
  }, model.alignment)
  const vocabulary: SubwordVocabularyFile = {
    format: "patent-subword-vocabulary/1",
    words: model.dictionary.words,
    counts: model.dictionary.counts
  }
  const files: Array<[string, string | Uint8Array]> = [
    [subwordEncoderFiles.model, onnxModel],
    [subwordEncoderFiles.vocabulary, JSON.stringify(vocabulary)],
    [subwordEncoderFiles.settings, JSON.stringify(model.settings, null, 2)],
    ["training.json", JSON.stringify({ kind: "patent-subword", ...model.stats, settings: model.settings }, null, 2)]
  ]
  for (const [name, content] of files) await fs.writeFile(path.join(folder, name), content)
  return { files: files.map(([name]) => `${into}/${name}`), modelBytes: onnxModel.byteLength }
}
