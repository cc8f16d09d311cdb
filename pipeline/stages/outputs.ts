/**
 * Handles on what stages write. A stage names the outputs it writes once, beside its code
 * (embedOutputs, mapOutputs, ingestTable …), and a later stage reads one through its handle,
 * `ctx.outputOf(embedOutputs.vectors)`, instead of spelling the path: a moved output is moved in
 * one place, and the runner refuses a read from a stage the reader does not depend on, whose
 * outputs its input hash would miss (it would be reused stale when they change).
 */
export interface OutputHandle {
  /** The stage that writes it. */
  readonly stage: string
  /** Path relative to the version directory (a file or a folder). */
  readonly path: string
}

export const output = (stage: string, path: string): OutputHandle => ({ stage, path })

/** Why outputOf refused: the reading stage does not depend on the writer. */
export const undeclaredRead = (reader: string, handle: OutputHandle) =>
  new Error(`stage ${reader} reads ${handle.path} of stage ${handle.stage} without depending on it (add "${handle.stage}" to its dependsOn)`)
