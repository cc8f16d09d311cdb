/**
 * Writes a trained LSA encoder as an encoder folder under the given version directory:
 * encoder/model.onnx (the graph with the term-vector table), encoder/vocab.json (terms, document
 * frequencies, idf), encoder/tokenizer.json (tokeniser and weighting settings) and
 * encoder/training.json (what it was trained on, for the manifest and for analysts).
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { lsaEncoderFiles } from "../../core/encoder/lsa-format.ts"
import { buildLsaEncoderModel } from "../../core/encoder/onnx-export.ts"
import type { TrainedLsaEncoder } from "./train.ts"

export const encoderFolder = "encoder"

export interface SavedLsaEncoder {
  /** Written files, relative to the version directory. */
  readonly files: ReadonlyArray<string>
  readonly modelBytes: number
}

export const saveLsaEncoder = async (versionDir: string, model: TrainedLsaEncoder): Promise<SavedLsaEncoder> => {
  const folder = path.join(versionDir, encoderFolder)
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
  return { files: files.map(([name]) => `${encoderFolder}/${name}`), modelBytes: onnxModel.byteLength }
}
