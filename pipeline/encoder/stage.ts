/**
 * The encoder stage: trains the text encoder and writes it as encoder/ (ONNX model, vocabulary,
 * tokenizer settings, training summary).
 *
 * ENCODER picks the kind (read with Effect Config):
 *   lsa (default)  TF-IDF + truncated SVD over the applications' indexed text (train.ts)
 *   fasttext       subword skip-gram over all the patent text the corpus carries: CPC scheme
 *                  titles (each with its parent's title: a subgroup and its parent describe one
 *                  thing), application titles, abstracts, claims, descriptions, MPEP and EPO
 *                  Guidelines text; SIF pooling (subword-train.ts). Better on phrase similarity
 *                  (bench/encoder-similarity.ts), worse than LSA on the sample's held-out
 *                  citations (bench/retrieval.ts), so not yet the default.
 *
 * The stage's code version does not include ENCODER: after switching it, build into a fresh
 * artifacts folder, or the runner reuses the encoder (and index) of the last build.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Config, Effect } from "effect"
import { indexedText } from "../../core/encoder/document-text.ts"
import type { Stage, StageResult } from "../stages/Stage.ts"
import { withTables } from "../stages/tables.ts"
import { isHeldOutCpcSymbol } from "./held-out.ts"
import { saveLsaEncoder, saveSubwordEncoder } from "./save.ts"
import type { Progress } from "../stages/progress.ts"
import { type SubwordTrainingOptions, type TrainingSource, trainSubwordEncoder } from "./subword-train.ts"
import { trainLsaEncoder } from "./train.ts"

export const EncoderKind = Config.literal("fasttext", "lsa")("ENCODER").pipe(Config.withDefault("lsa" as const))

/** Texts of one query's first column (nulls and empty strings skipped), streamed. */
const column = (conn: DuckDBConnection, sql: string) =>
  async function* () {
    const result = await conn.stream(sql)
    for await (const rows of result.yieldRowsJs()) {
      for (const [text] of rows as [string | null][]) if (text) yield text
    }
  }

/** The applications' indexed text (what the embed stage encodes), in application order. */
export const indexedTexts = (conn: DuckDBConnection) =>
  async function* () {
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

const tableNames = async (conn: DuckDBConnection) =>
  new Set(((await conn.runAndReadAll(`SELECT table_name FROM information_schema.tables`)).getRowsJS() as string[][]).map((r) => r[0]))

/** Every part of the corpus that carries patent language, in the budget's order of priority. */
export const trainingSources = async (conn: DuckDBConnection): Promise<TrainingSource[]> => {
  const present = await tableNames(conn)
  const sources: Array<[string, string, string]> = [
    ["applications", "applications", `SELECT concat_ws(' ', title, abstract) FROM applications ORDER BY app_num`],
    ["claims", "claims", `SELECT text FROM claims ORDER BY app_num, claim_num`],
    ["descriptions", "description_paragraphs", `SELECT text FROM description_paragraphs ORDER BY app_num, seq`],
    ["mpep", "mpep_sections", `SELECT unnest(string_split(content, chr(10))) FROM mpep_sections ORDER BY section_id`],
    ["epo guidelines", "epo_sections", `SELECT unnest(regexp_split_to_array(content, '[.;:]\\s+')) FROM epo_sections ORDER BY section_id`]
  ]
  const out: TrainingSource[] = sources
    .filter(([, table]) => present.has(table))
    .map(([name, , sql]) => ({ name, texts: { [Symbol.asyncIterator]: column(conn, sql) } }))
  if (present.has("cpc_scheme")) out.splice(2, 0, { name: "cpc titles", texts: { [Symbol.asyncIterator]: cpcTitles(conn) } })
  return out
}

/**
 * Each CPC entry's title followed by its parent's (a subgroup and its parent describe one thing),
 * leaving out the main groups the similarity benchmark holds out (held-out.ts).
 */
const cpcTitles = (conn: DuckDBConnection) =>
  async function* () {
    const result = await conn.stream(
      `SELECT s.symbol, concat_ws(' ', s.title, p.title) FROM cpc_scheme s LEFT JOIN cpc_scheme p ON p.symbol = s.parent ORDER BY s.symbol`
    )
    for await (const rows of result.yieldRowsJs()) {
      for (const [symbol, text] of rows as [string, string][]) if (text && !isHeldOutCpcSymbol(symbol)) yield text
    }
  }

const collect = async (texts: () => AsyncIterable<string>) => {
  const out: string[] = []
  for await (const t of texts()) out.push(t)
  return out
}

const trainFastText = (workDir: string, progress: Progress, options: Partial<SubwordTrainingOptions>) =>
  withTables(workDir, async (conn): Promise<StageResult> => {
    const sources = await trainingSources(conn)
    const documents = await collect(indexedTexts(conn))
    let last = 0
    const model = await trainSubwordEncoder(sources, documents, {
      ...options,
      onProgress: (phase, done) => {
        if (phase === "train") {
          progress.tick(done - last, "words trained")
          last = done
        } else progress.info(`encoder: ${phase} ${done}`)
      }
    })
    const saved = await saveSubwordEncoder(workDir, model)
    const read = Object.entries(model.stats.sources).map(([name, s]) => `${name} ${s.kept}/${s.words}`)
    return {
      outputs: [...saved.files],
      rowCounts: { encoder_vocabulary: model.stats.vocabulary },
      notes: [
        `fastText skip-gram (subwords ${model.settings.minn}-${model.settings.maxn}, width ${model.settings.dimensions}) on ${model.stats.trainingWords} words × ${model.stats.epochs} epochs (words read per source: ${read.join(", ")}); ${model.stats.vocabulary} words + ${model.settings.bucket} n-gram buckets; trained in ${(model.stats.trainMs / 1000).toFixed(1)} s; model ${saved.modelBytes} bytes`
      ]
    }
  })

const trainLsa = (workDir: string, progress: Progress) =>
  withTables(workDir, async (conn): Promise<StageResult> => {
    let last = 0
    // Training reads the texts twice (document frequencies, then the matrix): a function
    // that re-runs the query each time keeps memory independent of corpus size.
    const model = await trainLsaEncoder(indexedTexts(conn), {
      onProgress: (phase, documents) => {
        progress.tick(documents - last, `documents (${phase})`)
        last = documents
      }
    })
    const saved = await saveLsaEncoder(workDir, model)
    return {
      outputs: [...saved.files],
      rowCounts: { encoder_vocabulary: model.vocabulary.terms.length },
      notes: [
        `LSA rank ${model.settings.rank} (width ${model.settings.dimensions}) over ${model.stats.documents} documents, ${model.vocabulary.terms.length} terms; model ${saved.modelBytes} bytes`
      ]
    }
  })

/**
 * Trains an encoder of the given kind on the tables of the version in workDir and writes it to
 * workDir/encoder (the stage; the similarity benchmark uses it to train both kinds side by side).
 */
export const trainEncoder = (
  kind: "fasttext" | "lsa",
  workDir: string,
  progress: Progress,
  options: Partial<SubwordTrainingOptions> = {}
): Promise<StageResult> => (kind === "lsa" ? trainLsa(workDir, progress) : trainFastText(workDir, progress, options))

export const encoderStage: Stage = {
  name: "encoder",
  sources: ["pipeline/encoder", "core/encoder", "core/text/tokenize.ts"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.gen(function* () {
      const kind = yield* EncoderKind
      return yield* Effect.tryPromise(() => trainEncoder(kind, ctx.workDir, ctx.progress))
    })
}
