/**
 * The encoder stage: trains the default LSA encoder on the applications' indexed text (the
 * same text the embed stage encodes) and writes it as encoder/ (ONNX model, vocabulary,
 * tokenizer settings, training summary).
 */
import { Effect } from "effect"
import { indexedText } from "../../core/encoder/document-text.ts"
import type { Stage, StageResult } from "../stages/Stage.ts"
import { withTables } from "../stages/tables.ts"
import { saveLsaEncoder } from "./save.ts"
import { trainLsaEncoder } from "./train.ts"

export const encoderStage: Stage = {
  name: "encoder",
  sources: ["pipeline/encoder", "core/encoder", "core/text/tokenize.ts"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.tryPromise(async (): Promise<StageResult> =>
      withTables(ctx.workDir, async (conn) => {
        // Training reads the texts twice (document frequencies, then the matrix): a function
        // that re-runs the query each time keeps memory independent of corpus size.
        const texts = async function* () {
          const result = await conn.stream(`
            SELECT a.title, a.abstract, c.text FROM applications a
            LEFT JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1 ORDER BY a.app_num`)
          for await (const rows of result.yieldRowsJs()) {
            for (const [title, abstract, claim] of rows as [string | null, string | null, string | null][]) {
              const text = indexedText({ title, abstract, firstClaim: claim })
              if (text) yield text
            }
          }
        }
        let last = 0
        const model = await trainLsaEncoder(texts, {
          onProgress: (phase, documents) => {
            ctx.progress.tick(documents - last, `documents (${phase})`)
            last = documents
          }
        })
        const saved = await saveLsaEncoder(ctx.workDir, model)
        return {
          outputs: [...saved.files],
          rowCounts: { encoder_vocabulary: model.vocabulary.terms.length },
          notes: [
            `LSA rank ${model.settings.rank} (width ${model.settings.dimensions}) over ${model.stats.documents} documents, ${model.vocabulary.terms.length} terms; model ${saved.modelBytes} bytes`
          ]
        }
      })
    )
}
