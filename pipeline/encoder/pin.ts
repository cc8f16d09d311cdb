/**
 * The pinned encoder: between retrains a nightly build keeps the encoder of the version it grows
 * from, so unchanged applications keep their vectors (embed) and their place on the map (map),
 * and only new or changed ones are encoded.
 *
 * A build trains a new encoder when
 * - `RETRAIN=1` is set (`make artifacts RETRAIN=1`: a monthly cron line, or after a big change);
 * - there is no earlier encoder of the same kind and code (first build, `ENCODER` switched, or the
 *   encoder's code changed: its code version differs);
 * - the drift rule fires: the applications a model is used for have grown or shrunk by more than
 *   `ENCODER_DRIFT` (default 0.1, a tenth) of those it was trained on. At ~7,000 new US
 *   applications a week against 10.5M, that is a retrain about every three years, so the
 *   monthly RETRAIN is what keeps the vocabulary fresh; on a young corpus the rule retrains often.
 * `ENCODER_PIN=<version dir>` takes that version's encoder (and map frame) whatever the rule says:
 * to rebuild an old state, or to compare an incremental build with one from scratch.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Config, Option } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { filesUnder, linkFile } from "../../core/artifacts/files.ts"
import { encoderFolder } from "./save.ts"

export const RetrainSetting = Config.boolean("RETRAIN").pipe(Config.withDefault(false))
export const EncoderDrift = Config.number("ENCODER_DRIFT").pipe(
  Config.validate({ message: "ENCODER_DRIFT: must be a fraction between 0 and 10", validation: (n) => n >= 0 && n <= 10 }),
  Config.withDefault(0.1)
)
export const EncoderPin = Config.option(Config.string("ENCODER_PIN"))

/** Written beside a trained encoder: what the drift rule compares against. */
export const TRAINED_FILE = "trained.json"

export interface TrainedOn {
  /** Applications that get a vector (not design or plant) when the encoder was trained. */
  readonly documents: number
}

/** Applications that get a vector: the count the drift rule follows (text-less ones are few). */
export const vectorDocumentCount = async (conn: DuckDBConnection) =>
  Number(
    (await conn.runAndReadAll(`SELECT count(*) FROM applications WHERE coalesce(doc_type, '') NOT IN ('design', 'plant')`)).getRows()[0][0]
  )

export const readTrainedOn = async (versionDir: string): Promise<TrainedOn | undefined> =>
  fs
    .readFile(path.join(versionDir, encoderFolder, TRAINED_FILE), "utf8")
    .then((t) => JSON.parse(t) as TrainedOn)
    .catch(() => undefined)

export type PinDecision =
  | { readonly _tag: "Train"; readonly reason: string }
  | { readonly _tag: "Pin"; readonly from: string; readonly reason: string }

export const decidePin = (o: {
  readonly retrain: boolean
  readonly explicitPin: Option.Option<string>
  readonly drift: number
  /** The encoder stage of the version this build grows from, when it is the same code and kind. */
  readonly previous?: { readonly dir: string; readonly trainedOn?: TrainedOn }
  readonly documents: number
}): PinDecision => {
  if (Option.isSome(o.explicitPin)) return { _tag: "Pin", from: o.explicitPin.value, reason: `ENCODER_PIN=${o.explicitPin.value}` }
  if (o.retrain) return { _tag: "Train", reason: "RETRAIN=1" }
  if (!o.previous) return { _tag: "Train", reason: "no earlier encoder of this kind and code" }
  const trained = o.previous.trainedOn
  if (!trained) return { _tag: "Train", reason: "the earlier encoder does not say what it was trained on" }
  const change = Math.abs(o.documents - trained.documents) / Math.max(1, trained.documents)
  const measured = `${o.documents} applications against ${trained.documents} at training (${(change * 100).toFixed(1)}% change, drift limit ${(o.drift * 100).toFixed(1)}%)`
  return change > o.drift
    ? { _tag: "Train", reason: `drift: ${measured}` }
    : { _tag: "Pin", from: o.previous.dir, reason: `pinned: ${measured}` }
}

/** Hard-links (or copies) the encoder folder of `fromVersion` into `workDir`; returns the linked paths, relative to workDir. */
export const linkEncoder = async (fromVersion: string, workDir: string): Promise<string[]> => {
  const from = path.join(fromVersion, encoderFolder)
  const files = await filesUnder(from)
  if (!files.some((f) => f.endsWith(".onnx"))) throw new Error(`${from} holds no encoder model`)
  const to = path.join(workDir, encoderFolder)
  await fs.rm(to, { recursive: true, force: true })
  for (const f of files) await linkFile(path.join(from, f), path.join(to, f))
  return files.map((f) => `${encoderFolder}/${f}`)
}
