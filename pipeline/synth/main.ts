/**
 * make synth N=… OUT=… [SEED=…]: writes a synthetic corpus of N applications in the sample
 * corpus's official formats, deterministic for the seed, streamed to disk.
 *
 *   npx tsx pipeline/synth/main.ts --n 100000 --out .tmp/synth-100000 --seed 42 [--topics 4000] [--level 2] [--workers K]
 */
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { synthesize, type SynthProgress } from "./corpus.ts"
import { parseSeed } from "./random.ts"

const here = path.dirname(fileURLToPath(import.meta.url))

const { values } = parseArgs({
  options: {
    n: { type: "string" },
    out: { type: "string" },
    seed: { type: "string", default: "42" },
    topics: { type: "string", default: "4000" },
    level: { type: "string", default: "2" },
    workers: { type: "string" },
    sample: { type: "string", default: path.resolve(here, "..", "sample-corpus") }
  }
})

const n = Number(values.n)
if (!values.n || !Number.isInteger(n) || n < 1 || !values.out) {
  console.error("usage: main.ts --n N --out DIR [--seed S] [--topics 4000] [--level 1-9] [--workers K] [--sample DIR]")
  process.exit(2)
}

const fmt = (x: number): string => Math.round(x).toLocaleString("en-US")
const started = Date.now()
let lastPrint = 0
const progress = (p: SynthProgress) => {
  const now = Date.now()
  const secs = (now - started) / 1000
  if (p.phase === "documents") {
    if (now - lastPrint < 2000) return
    lastPrint = now
    console.log(
      `synth: applications ${fmt(p.applications)}/${fmt(n)}  grants ${fmt(p.grants)}/${fmt(p.totalGrants)}  ` +
        `(${fmt((p.applications + p.grants) / secs)} documents/s)  ${secs.toFixed(1)}s`
    )
  } else if (p.phase !== "done") {
    console.log(`synth: ${p.phase === "topics" ? "choosing CPC topics" : "building the docket (topics, prosecution outcomes, grant numbers, continuations)"}  ${secs.toFixed(1)}s`)
  }
}

const out = path.resolve(values.out)
try {
  const r = await synthesize(
    { n, seed: parseSeed(values.seed!), out, sampleDir: path.resolve(values.sample!), topics: Number(values.topics), level: Number(values.level), workers: values.workers === undefined ? undefined : Number(values.workers) },
    progress
  )
  const secs = (Date.now() - started) / 1000
  console.log(
    `synth: done in ${secs.toFixed(1)}s: ${fmt(r.applications)} applications (${r.applicationFiles} weekly files), ${fmt(r.grants)} grants (${r.grantFiles} weekly files), ` +
      `${r.pedsFiles} PEDS files; ${r.topics} topics in ${r.artUnits} art units; filings ${r.firstFiling}..${r.lastFiling}, snapshot ${r.snapshot}; ` +
      `${fmt(r.applications / secs)} applications/s → ${out}`
  )
} catch (e) {
  console.error(`synth: ${e instanceof Error ? e.message : String(e)}`)
  process.exit(1)
}
