/**
 * The encoder stage: trains the text encoder and writes it as encoder/ (ONNX model, vocabulary,
 * tokenizer settings, training summary).
 *
 * ENCODER picks the kind (read with Effect Config):
 *   ensemble (default)  both of the below, each vector the weighted join of the two
 *                  (core/encoder/ensemble-encoder.ts; subword weight 0.6, chosen on the retrieval
 *                  bench's dev splits): better than either on phrase similarity and on the sample's
 *                  held-out citations.
 *   lsa            TF-IDF + truncated SVD over the applications' indexed text (train.ts)
 *   fasttext       subword skip-gram over all the patent text the corpus carries: CPC scheme
 *                  titles (each with its parent's title: a subgroup and its parent describe one
 *                  thing), application titles, abstracts, claims, descriptions, MPEP and EPO
 *                  Guidelines text; SIF pooling; a map learned from the CPC hierarchy's
 *                  subgroup/parent title pairs (subword-train.ts, cpc-alignment.ts). Better on phrase similarity
 *                  (bench/encoder-similarity.ts), worse than LSA on the sample's held-out
 *                  citations (bench/retrieval.ts).
 *
 * ENCODER_TRAINER picks which fastText trains the subword part (auto, native or wasm; see
 * EncoderTrainer below and subword-train.ts trainerOptions).
 *
 * ENCODER is part of the stage's code version: switching it retrains, and the stages after it
 * (embed, map, atlas, …) rebuild from the new model.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Config, Effect, Option } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { indexedText } from "../../core/encoder/document-text.ts"
import { DEFAULT_SUBWORD_WEIGHT, ENSEMBLE_PARTS, type EnsembleSettings, LSA_FULL_AT_WORDS } from "../../core/encoder/ensemble-encoder.ts"
import { type Stage, StageError, type StageResult, stagePromise } from "../stages/Stage.ts"
import { withTables } from "../stages/tables.ts"
import { readManifest } from "../../core/artifacts/versions.ts"
import { decidePin, EncoderDrift, EncoderPin, linkEncoder, readTrainedOn, RetrainSetting, TRAINED_FILE, type TrainedOn, vectorDocumentCount } from "./pin.ts"
import type { SchemeEntry } from "./cpc-alignment.ts"
import { isHeldOutCpcSymbol } from "./held-out.ts"
import { encoderFolder, saveLsaEncoder, saveSubwordEncoder } from "./save.ts"
import type { Progress } from "../stages/progress.ts"
import {
  defaultSubwordTrainingOptions,
  samplingRates,
  trainerOptions,
  type SubwordTrainingOptions,
  type TrainingSource,
  trainSubwordEncoder
} from "./subword-train.ts"
import { trainLsaEncoder } from "./train.ts"
import { nativeFastTextAvailable } from "./native-fasttext.ts"

export const EncoderKind = Config.literal("fasttext", "lsa", "ensemble")("ENCODER").pipe(Config.withDefault("ensemble" as const))

/**
 * Which build of fastText trains the subword model (ENCODER_TRAINER): `native` is Debian's
 * `fasttext` command, two to three times as fast on its one thread as the in-process WebAssembly
 * build (`wasm`), so it reads several times the text in a few minutes (trainerOptions); `auto`
 * (the default) takes native where the command runs here. The two give different models, so the
 * choice is part of the stage's settings.
 */
export const EncoderTrainer = Config.string("ENCODER_TRAINER").pipe(
  Config.withDefault("auto"),
  Config.validate({
    message: "ENCODER_TRAINER: must be auto, native or wasm",
    validation: (s: string): s is "auto" | "native" | "wasm" => s === "auto" || s === "native" || s === "wasm"
  })
)

/**
 * Words the subword trainer reads per epoch at most (ENCODER_TRAINING_WORDS; default the
 * trainer's own budget, trainerOptions): the bound on training time. A smaller budget trains
 * faster on a weaker model; it is part of the stage's settings, so changing it retrains.
 */
export const EncoderTrainingWords = Config.option(
  Config.integer("ENCODER_TRAINING_WORDS").pipe(
    Config.validate({ message: "ENCODER_TRAINING_WORDS: must be a whole number of words of at least 10000", validation: (n: number) => n >= 10_000 })
  )
)

/** The subword training options of a trainer, with the budget ENCODER_TRAINING_WORDS sets. */
export const stageTrainingOptions = (trainer: "wasm" | "native", words: Option.Option<number>): Partial<SubwordTrainingOptions> => ({
  ...trainerOptions(trainer),
  ...Option.match(words, { onNone: () => ({}), onSome: (maxTrainingWords) => ({ maxTrainingWords }) })
})

/** ENCODER_TRAINER resolved to the build that will train; `native` without the command fails the stage with a message saying so. */
export const resolvedTrainer = Effect.gen(function* () {
  const wanted = yield* EncoderTrainer
  if (wanted === "wasm") return "wasm" as const
  const available = yield* Effect.promise(() => nativeFastTextAvailable())
  if (available) return "native" as const
  if (wanted === "native") return yield* Effect.fail(new StageError({ message: "ENCODER_TRAINER=native: the fasttext command is not installed (Debian: apt-get install fasttext)" }))
  return "wasm" as const
})

/** Texts of one query's `text` column (nulls and empty strings skipped), streamed. */
const column = (conn: DuckDBConnection, sql: string) =>
  async function* () {
    const result = await conn.stream(sql)
    for await (const rows of result.yieldRowsJs()) {
      for (const [text] of rows as [string | null][]) if (text) yield text
    }
  }

/** The applications' indexed text (what the embed stage encodes) from a query's rows. */
const indexedTextsOf = (conn: DuckDBConnection, order: string, limit = "", where = "TRUE") =>
  async function* () {
    const result = await conn.stream(`
      SELECT a.title, a.abstract, c.text FROM applications a
      LEFT JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1 WHERE ${where} ORDER BY ${order} ${limit}`)
    for await (const rows of result.yieldRowsJs()) {
      for (const [title, abstract, claim] of rows as [string | null, string | null, string | null][]) {
        const text = indexedText({ title, abstract, firstClaim: claim })
        if (text) yield text
      }
    }
  }

/** The applications' indexed text, in application order. */
export const indexedTexts = (conn: DuckDBConnection) => indexedTextsOf(conn, "a.app_num")

/**
 * Applications the LSA encoder trains on at most. Training reads its texts twice (tokenising
 * each) and multiplies by their sparse matrix four times in the randomized SVD, all linear in the
 * documents: 29 CPU s at 20,000 synthetic applications, 85 at 100,000, so about 14 min at a
 * million. Past this many, a fixed hash-spread sample (the same applications on every build of
 * the same corpus) stands for the corpus: 100,000 documents (400 per component) support the
 * vocabulary's document frequencies and the 256 components, at a 100k corpus's cost whatever the
 * corpus size. A corpus at or below it trains on every application, exactly as before.
 */
export const LSA_TRAINING_SAMPLE = 100_000

/** The indexed texts the LSA encoder trains on: all applications, or a hash-spread sample of `sample` of them, in application order. */
export const lsaTrainingTexts = async (conn: DuckDBConnection, sample = LSA_TRAINING_SAMPLE) => {
  const applications = Number((await conn.runAndReadAll(`SELECT count(*) FROM applications`)).getRows()[0][0])
  if (applications <= sample) return { texts: indexedTexts(conn), applications, sampled: false }
  const chosen = `a.app_num IN (SELECT app_num FROM applications ORDER BY hash(app_num), app_num LIMIT ${sample})`
  return { texts: indexedTextsOf(conn, "a.app_num", "", chosen), applications, sampled: true }
}

const tableNames = async (conn: DuckDBConnection) =>
  new Set(((await conn.runAndReadAll(`SELECT table_name FROM information_schema.tables`)).getRowsJS() as string[][]).map((r) => r[0]))

/**
 * The parts of the corpus that carry patent language. Each part's `rows` has a `text` column and
 * the columns of `order`, a key unique within the part, so its rows reach the trainer in one
 * order whatever DuckDB's threads and memory do (the trainer keeps lines by their position, so
 * an order SQL leaves open would change the model). Guidance text is split into lines or
 * sentences, each numbered within its section. CPC titles come with their parent's title (a
 * subgroup and its parent describe one thing) and without the main groups the similarity
 * benchmark holds out (held-out.ts; filtered in TypeScript by `symbol`).
 */
const corpusParts: ReadonlyArray<{ name: string; table: string; rows: string; columns: string; order: string }> = [
  { name: "applications", table: "applications", rows: `SELECT app_num, concat_ws(' ', title, abstract) AS text FROM applications`, columns: "text", order: "app_num" },
  { name: "claims", table: "claims", rows: `SELECT app_num, claim_num, text FROM claims`, columns: "text", order: "app_num, claim_num" },
  {
    name: "cpc titles",
    table: "cpc_scheme",
    rows: `SELECT s.symbol, concat_ws(' ', s.title, p.title) AS text FROM cpc_scheme s LEFT JOIN cpc_scheme p ON p.symbol = s.parent`,
    columns: "symbol, text",
    order: "symbol"
  },
  { name: "descriptions", table: "description_paragraphs", rows: `SELECT app_num, seq, text FROM description_paragraphs`, columns: "text", order: "app_num, seq" },
  {
    name: "mpep",
    table: "mpep_sections",
    rows: `SELECT section_id, line_no, text FROM mpep_sections, unnest(string_split(content, chr(10))) WITH ORDINALITY AS line(text, line_no)`,
    columns: "text",
    order: "section_id, line_no"
  },
  {
    name: "epo guidelines",
    table: "epo_sections",
    rows: `SELECT section_id, sentence_no, text FROM epo_sections, unnest(regexp_split_to_array(content, '[.;:]\\s+')) WITH ORDINALITY AS sentence(text, sentence_no)`,
    columns: "text",
    order: "section_id, sentence_no"
  }
]

/** Hash buckets for sampling rows in SQL. */
const sampleBuckets = 1_000_003

/**
 * Every part of the corpus as a training source. DuckDB counts each part's words and thins the
 * large ones to about their share of the word budget before a row reaches JavaScript (10% more
 * than the share; the trainer then samples exactly), so the cost of reading stays bounded
 * however large the corpus. The ORDER BY is the outermost clause, after the thinning.
 */
export const trainingSources = async (
  conn: DuckDBConnection,
  options: Pick<SubwordTrainingOptions, "maxTrainingWords" | "sourceWeights"> = defaultSubwordTrainingOptions
): Promise<TrainingSource[]> => {
  const present = await tableNames(conn)
  const parts = corpusParts.filter((p) => present.has(p.table))
  const words: number[] = []
  for (const p of parts) {
    const r = await conn.runAndReadAll(`SELECT coalesce(sum(length(text) - length(replace(text, ' ', '')) + 1), 0) FROM (${p.rows}) WHERE text <> ''`)
    words.push(Number(r.getRows()[0][0]))
  }
  const rates = samplingRates(words, parts.map((p) => options.sourceWeights[p.name] ?? 1), options.maxTrainingWords)
  return parts.map((p, i) => {
    const keep = Math.min(sampleBuckets, Math.ceil(rates[i] * 1.1 * sampleBuckets))
    const thinned = keep >= sampleBuckets ? "" : `WHERE text IS NOT NULL AND hash(text) % ${sampleBuckets} < ${keep}`
    const sql = `SELECT ${p.columns} FROM (${p.rows}) ${thinned} ORDER BY ${p.order}`
    const texts =
      p.name === "cpc titles"
        ? async function* () {
            const result = await conn.stream(sql)
            for await (const rows of result.yieldRowsJs()) {
              for (const [symbol, text] of rows as [string, string | null][]) if (text && !isHeldOutCpcSymbol(symbol)) yield text
            }
          }
        : column(conn, sql)
    return { name: p.name, texts: { [Symbol.asyncIterator]: texts } }
  })
}

const collect = async (texts: () => AsyncIterable<string>) => {
  const out: string[] = []
  for await (const t of texts()) out.push(t)
  return out
}

/** The CPC scheme's entries the alignment learns from, without the held-out main groups (none when the corpus has no scheme). */
export const alignmentScheme = async (conn: DuckDBConnection): Promise<SchemeEntry[]> => {
  if (!(await tableNames(conn)).has("cpc_scheme")) return []
  const rows = (await conn.runAndReadAll(`SELECT symbol, title, parent FROM cpc_scheme WHERE title IS NOT NULL ORDER BY symbol`)).getRowsJS() as [string, string, string | null][]
  return rows.filter(([symbol]) => !isHeldOutCpcSymbol(symbol)).map(([symbol, title, parent]) => ({ symbol, title, parent }))
}

const trainFastText = (workDir: string, progress: Progress, options: Partial<SubwordTrainingOptions>, into = encoderFolder) =>
  withTables(workDir, async (conn): Promise<StageResult> => {
    const o = { ...defaultSubwordTrainingOptions, ...options }
    const sources = await trainingSources(conn, o)
    // The common component is measured on a fixed spread of the documents (hash order).
    const documents = await collect(indexedTextsOf(conn, "hash(a.app_num), a.app_num", `LIMIT ${o.commonComponentSample}`))
    const scheme = o.cpcAlignment ? await alignmentScheme(conn) : []
    let last = 0
    const model = await trainSubwordEncoder(sources, documents, {
      ...options,
      onProgress: (phase, done) => {
        if (phase === "train") {
          progress.tick(done - last, "words trained")
          last = done
        } else progress.info(`encoder: ${phase} ${done}`)
      }
    }, scheme)
    const saved = await saveSubwordEncoder(workDir, model, into)
    const read = Object.entries(model.stats.sources).map(([name, s]) => `${name} ${s.kept}/${s.words}`)
    return {
      outputs: [...saved.files],
      rowCounts: { encoder_vocabulary: model.stats.vocabulary },
      notes: [
        `fastText skip-gram (subwords ${model.settings.minn}-${model.settings.maxn}, width ${model.settings.dimensions}) on ${model.stats.trainingWords} words × ${model.stats.epochs} epochs (words read per source: ${read.join(", ")}); ${model.stats.vocabulary} words + ${model.settings.bucket} n-gram buckets; ${model.stats.phrases > 0 ? `${model.stats.phrases} two-word terms joined; ` : ""}trained in ${(model.stats.trainMs / 1000).toFixed(1)} s; ${model.alignment ? `aligned to the CPC hierarchy from ${model.stats.alignmentPairs} subgroup/parent title pairs` : "no CPC alignment"}; model ${saved.modelBytes} bytes`
      ]
    }
  })

const trainLsa = (workDir: string, progress: Progress, into = encoderFolder) =>
  withTables(workDir, async (conn): Promise<StageResult> => {
    let last = 0
    // Training reads the texts twice (document frequencies, then the matrix): a function
    // that re-runs the query each time keeps memory independent of corpus size.
    const training = await lsaTrainingTexts(conn)
    const model = await trainLsaEncoder(training.texts, {
      onProgress: (phase, documents) => {
        progress.tick(documents - last, `documents (${phase})`)
        last = documents
      }
    })
    const saved = await saveLsaEncoder(workDir, model, into)
    return {
      outputs: [...saved.files],
      rowCounts: { encoder_vocabulary: model.vocabulary.terms.length },
      notes: [
        `LSA rank ${model.settings.rank} (width ${model.settings.dimensions}) over ${model.stats.documents} documents${training.sampled ? ` (a hash-spread sample of the ${training.applications} applications)` : ""}, ${model.vocabulary.terms.length} terms; model ${saved.modelBytes} bytes`
      ]
    }
  })

/**
 * Both encoders, side by side under encoder/lsa and encoder/subword, and an ensemble settings file
 * naming them with their weights (core/encoder/ensemble-encoder.ts): LSA carries the retrieval
 * signal of the corpus's own co-occurrences, the subword model knows every word and its pieces;
 * LSA has its whole weight only from LSA_FULL_AT_WORDS words on.
 */
const trainEnsemble = async (workDir: string, progress: Progress, options: Partial<SubwordTrainingOptions>): Promise<StageResult> => {
  const lsa = await trainLsa(workDir, progress, `${encoderFolder}/${ENSEMBLE_PARTS.lsa}`)
  const subword = await trainFastText(workDir, progress, options, `${encoderFolder}/${ENSEMBLE_PARTS.subword}`)
  const settings: EnsembleSettings = {
    kind: "patent-ensemble",
    parts: [
      { folder: ENSEMBLE_PARTS.lsa, weight: 1 - DEFAULT_SUBWORD_WEIGHT, tokens: true, fullAtWords: LSA_FULL_AT_WORDS },
      { folder: ENSEMBLE_PARTS.subword, weight: DEFAULT_SUBWORD_WEIGHT, tokens: false }
    ]
  }
  await fs.writeFile(path.join(workDir, encoderFolder, "tokenizer.json"), JSON.stringify(settings, null, 2))
  return {
    outputs: [...lsa.outputs, ...subword.outputs, `${encoderFolder}/tokenizer.json`],
    rowCounts: { encoder_vocabulary: (lsa.rowCounts.encoder_vocabulary ?? 0) + (subword.rowCounts.encoder_vocabulary ?? 0) },
    notes: [...(lsa.notes ?? []), ...(subword.notes ?? []), `ensemble: LSA weight ${settings.parts[0].weight} (all of it from ${LSA_FULL_AT_WORDS} words), subword weight ${settings.parts[1].weight}`]
  }
}

/**
 * Trains an encoder of the given kind on the tables of the version in workDir and writes it to
 * workDir/encoder (the stage; the similarity benchmark uses it to train every kind side by side).
 */
export const trainEncoder = (
  kind: "fasttext" | "lsa" | "ensemble",
  workDir: string,
  progress: Progress,
  options: Partial<SubwordTrainingOptions> = {}
): Promise<StageResult> =>
  kind === "lsa" ? trainLsa(workDir, progress) : kind === "fasttext" ? trainFastText(workDir, progress, options) : trainEnsemble(workDir, progress, options)

export const encoderStage: Stage = {
  name: "encoder",
  sources: ["pipeline/encoder", "core/encoder", "core/text/tokenize.ts"],
  // Switching ENCODER retrains (and so re-embeds) instead of reusing the other kind's model.
  settings: Effect.gen(function* () {
    const kind = yield* EncoderKind
    if (kind === "lsa") return "ENCODER=lsa"
    const trainer = yield* resolvedTrainer
    const { maxTrainingWords } = { ...defaultSubwordTrainingOptions, ...stageTrainingOptions(trainer, yield* EncoderTrainingWords) }
    return `ENCODER=${kind} ENCODER_TRAINER=${trainer} ENCODER_TRAINING_WORDS=${maxTrainingWords}`
  }),
  // RETRAIN=1 must train even when nothing changed since the last build (the runner would take the
  // pinned model over); ENCODER_PIN must be honoured the same way.
  rerun: Effect.zipWith(Effect.orElseSucceed(RetrainSetting, () => false), Effect.orElseSucceed(EncoderPin, () => Option.none<string>()), (retrain, pin) => retrain || Option.isSome(pin)),
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.gen(function* () {
      const kind = yield* EncoderKind
      const trainer = kind === "lsa" ? ("wasm" as const) : yield* resolvedTrainer
      const trainingWords = yield* EncoderTrainingWords
      const retrain = yield* RetrainSetting
      const drift = yield* EncoderDrift
      const explicitPin = yield* EncoderPin
      return yield* stagePromise(async (): Promise<StageResult> => {
        const documents = await withTables(ctx.workDir, vectorDocumentCount)
        // Only an encoder of the same kind and code is a candidate (ENCODER and the code are in the code version).
        const previous = ctx.previous && ctx.previous.record.codeVersion === ctx.codeVersion ? ctx.previous : undefined
        const decision = decidePin({
          retrain,
          explicitPin,
          drift,
          previous: previous ? { dir: previous.dir, trainedOn: await readTrainedOn(previous.dir) } : undefined,
          documents
        })
        ctx.progress.info(`encoder: ${decision._tag === "Pin" ? "pinned" : "training"} (${decision.reason})`)
        if (decision._tag === "Pin") {
          const files = await linkEncoder(decision.from, ctx.workDir)
          const donor = decision.from === previous?.dir ? previous.record : (await readManifest(decision.from))?.stages.find((s) => s.name === "encoder")
          return {
            outputs: files,
            rowCounts: donor?.rowCounts.encoder_vocabulary !== undefined ? { encoder_vocabulary: donor.rowCounts.encoder_vocabulary } : {},
            linkedOutputs: decision.from === previous?.dir ? Object.fromEntries(previous.record.outputs.map((o) => [o.path, o])) : undefined,
            notes: [`encoder pinned: ${decision.reason}`]
          }
        }
        if (kind !== "lsa" && trainer === "wasm") ctx.progress.info("encoder: training in-process on one thread, on a fifth of the text (install Debian's fasttext for the full model)")
        const result = await trainEncoder(kind, ctx.workDir, ctx.progress, stageTrainingOptions(trainer, trainingWords))
        const trainedOn: TrainedOn = { documents }
        await fs.writeFile(path.join(ctx.workDir, encoderFolder, TRAINED_FILE), JSON.stringify(trainedOn))
        return { ...result, outputs: [...result.outputs, `${encoderFolder}/${TRAINED_FILE}`], notes: [...(result.notes ?? []), `trained: ${decision.reason}`] }
      })
    })
}
