/**
 * What a pipeline stage is: a named step that reads corpus files and/or earlier stages'
 * outputs and writes files into the version being built. The runner (runner.ts) decides
 * whether to run it, resume it, or take its outputs over from an earlier build.
 */
import { type ConfigError, Data, Effect } from "effect"
import type { SkippedRecord, StageOutput, StageRecord } from "../../core/artifacts/manifest.ts"
import type { CorpusFile } from "../../core/corpus/reader.ts"
import type { CorpusLocation, CorpusObject } from "../corpus/CorpusStore.ts"
import type { OutputHandle } from "./outputs.ts"
import type { Progress } from "./progress.ts"

export interface StageContext {
  /** Absolute path of the version directory being built (a temporary name until published). */
  readonly workDir: string
  /** The corpus files this stage declared as inputs. */
  readonly corpusFiles: ReadonlyArray<CorpusObject>
  readonly openCorpusFile: (path: string) => CorpusFile
  /** Absolute path of an output of an earlier stage this one depends on (throws for any other stage). */
  readonly outputOf: (output: OutputHandle) => string
  readonly progress: Progress
  /** The stage's code version as the runner computed it (sources and settings). */
  readonly codeVersion?: string
  /** Where the corpus lives, for work that opens corpus objects in other threads. */
  readonly corpusLocation?: CorpusLocation
  /**
   * This stage's folder and record in the current version, when it has one, whatever its code
   * and inputs: a stage that can reuse part of its earlier work (ingest: the raw partitions of
   * unchanged corpus objects) finds it here and decides itself what still applies.
   */
  readonly previous?: { readonly dir: string; readonly record: StageRecord }
  /**
   * Work folders of interrupted builds of other code (a fix landed after a crash). A stage whose
   * partial work is keyed by its own code (ingest's partitions) may take over what they finished.
   */
  readonly interrupted?: ReadonlyArray<string>
}

export interface StageResult {
  /** Output files, relative to the version directory. */
  readonly outputs: ReadonlyArray<string>
  /** Row counts per produced table. */
  readonly rowCounts: Readonly<Record<string, number>>
  /** Order-independent content hashes per output path, where the stage computes them. */
  readonly contentHashes?: Readonly<Record<string, string>>
  readonly skipped?: SkipTally
  readonly notes?: ReadonlyArray<string>
  /**
   * Outputs hard-linked from `previous`, with the records they had there: the runner takes their
   * hashes over instead of reading every unchanged file again.
   */
  readonly linkedOutputs?: Readonly<Record<string, StageOutput>>
}

export interface Stage {
  readonly name: string
  /** Source paths (files or folders, repo-relative) whose content makes up the stage's code version. */
  readonly sources: ReadonlyArray<string>
  /**
   * Settings that change what the stage produces (e.g. ENCODER), folded into its code version. A
   * setting that does not parse fails the build before any stage runs, naming the stage and the
   * rule, even when the build would otherwise be up to date.
   */
  readonly settings?: Effect.Effect<string, StageError | ConfigError.ConfigError>
  /**
   * True when the stage must run although an earlier build's outputs match its code and inputs
   * (the encoder under RETRAIN=1): the runner then neither resumes nor takes outputs over.
   */
  readonly rerun?: Effect.Effect<boolean>
  /** Earlier stages whose outputs this stage reads. */
  readonly dependsOn: ReadonlyArray<string>
  /**
   * Which of those outputs it reads (by version-relative path), when not all of them: only these
   * enter its input hash, so a change elsewhere (a new weekly file of applications for a stage
   * that reads only the MPEP) reuses its last result. Every output when absent.
   */
  readonly readsOutput?: (path: string) => boolean
  /** Which corpus files the stage reads (by corpus-relative path). */
  readonly readsCorpusFile: (path: string) => boolean
  readonly run: (ctx: StageContext) => Effect.Effect<StageResult, StageError | ConfigError.ConfigError>
}

/** Why a stage failed: its message names what went wrong (the runner adds which stage). */
export class StageError extends Data.TaggedError("StageError")<{ readonly message: string; readonly cause?: unknown }> {
  /** The underlying error of anything a stage's work threw or failed with (Effect's UnknownException unwrapped). */
  static from(e: unknown): StageError {
    if (e instanceof StageError) return e
    const root = e && typeof e === "object" && (e as { _tag?: string })._tag === "UnknownException" ? (e as { cause?: unknown }).cause : e
    return new StageError({ message: root instanceof Error ? root.message : String(root), cause: root })
  }
}

/** A stage's asynchronous work as an Effect whose failure is a StageError. */
export const stagePromise = <A>(work: () => Promise<A>): Effect.Effect<A, StageError> => Effect.tryPromise({ try: work, catch: StageError.from })

/**
 * Outputs under a hidden folder (ingest's `.ingest/` partitions) are the stage's own working
 * state: carried from version to version and verified like every output, but not what later
 * stages read, so they stay out of dependents' input hashes (a partition's name changes with the
 * ingest code version even when the tables it merges into do not).
 */
export const isPrivateOutput = (rel: string) => rel.split("/").some((segment) => segment.startsWith("."))

/** Counts skipped records by reason and keeps the first few for the manifest. */
export class SkipTally {
  count = 0
  readonly byReason: Record<string, number> = {}
  readonly samples: SkippedRecord[] = []
  constructor(private readonly keep = 200) {}
  add(s: SkippedRecord) {
    this.count++
    // Reasons carry details (ids, offsets, quoted values); group by the reason with those blanked
    // out so the tally stays readable.
    const key =
      s.reason.split(/: |\(/)[0].replace(/\S*\d\S*/g, "…").replace(/\s+/g, " ").trim().slice(0, 120) || "unspecified"
    this.byReason[key] = (this.byReason[key] ?? 0) + 1
    if (this.samples.length < this.keep) this.samples.push(s)
  }
  /**
   * Adds another tally taken over later records (a corpus object read elsewhere, or reused):
   * absorbing each object's tally in corpus order gives what adding its records one by one gave.
   */
  absorb(other: { readonly count: number; readonly byReason: Readonly<Record<string, number>>; readonly samples: ReadonlyArray<SkippedRecord> }) {
    this.count += other.count
    for (const [reason, n] of Object.entries(other.byReason)) this.byReason[reason] = (this.byReason[reason] ?? 0) + n
    for (const s of other.samples) {
      if (this.samples.length >= this.keep) break
      this.samples.push(s)
    }
  }
}
