/**
 * Progress lines for `make artifacts`: one line per stage start/finish and periodic lines
 * with counts and rates while a stage streams records. Lines (not a redrawn bar) so that
 * nightly-build logs stay readable.
 */
export interface Progress {
  readonly stage: (name: string) => void
  /** Adds `n` processed units (documents, rows…) and prints a rate line at most every `everyMs`. */
  readonly tick: (n: number, unit: string, detail?: string) => void
  readonly info: (line: string) => void
  readonly done: (summary: string) => void
}

export const consoleProgress = (write: (line: string) => void = (l) => process.stderr.write(l + "\n"), everyMs = 2000): Progress => {
  let current = ""
  let started = Date.now()
  let last = 0
  let count = 0
  const fmtRate = (n: number, ms: number) => (ms > 0 ? Math.round((n * 1000) / ms).toLocaleString("en-US") : "–")
  return {
    stage: (name) => {
      current = name
      started = Date.now()
      last = started
      count = 0
      write(`[${name}] started`)
    },
    tick: (n, unit, detail) => {
      count += n
      const now = Date.now()
      if (now - last >= everyMs) {
        last = now
        write(`[${current}] ${count.toLocaleString("en-US")} ${unit} (${fmtRate(count, now - started)}/s)${detail ? ` ${detail}` : ""}`)
      }
    },
    info: (line) => write(`[${current}] ${line}`),
    done: (summary) => write(`[${current}] done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${summary}`)
  }
}

export const silentProgress: Progress = { stage: () => {}, tick: () => {}, info: () => {}, done: () => {} }
