/**
 * What a pipeline stage is: a named step that reads corpus files and/or earlier stages'
 * outputs and writes files into the version being built. The runner (runner.ts) decides
 * whether to run it, resume it, or take its outputs over from an earlier build.
 */
import type { Effect } from "effect"
import type { SkippedRecord } from "../../core/artifacts/manifest.ts"
import type { CorpusFile } from "../../core/corpus/reader.ts"
import type { CorpusObject } from "../corpus/CorpusStore.ts"
import type { Progress } from "./progress.ts"

export interface StageContext {
  /** Absolute path of the version directory being built (a temporary name until published). */
  readonly workDir: string
  /** The corpus files this stage declared as inputs. */
  readonly corpusFiles: ReadonlyArray<CorpusObject>
  readonly openCorpusFile: (path: string) => CorpusFile
  /** Absolute path of an output of an earlier stage of this build. */
  readonly outputOf: (stage: string, relPath: string) => string
  readonly progress: Progress
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
}

export interface Stage {
  readonly name: string
  /** Source paths (files or folders, repo-relative) whose content makes up the stage's code version. */
  readonly sources: ReadonlyArray<string>
  /** Settings that change what the stage produces (e.g. ENCODER), folded into its code version. */
  readonly settings?: () => string
  /** Earlier stages whose outputs this stage reads. */
  readonly dependsOn: ReadonlyArray<string>
  /** Which corpus files the stage reads (by corpus-relative path). */
  readonly readsCorpusFile: (path: string) => boolean
  readonly run: (ctx: StageContext) => Effect.Effect<StageResult, unknown>
}

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
}
