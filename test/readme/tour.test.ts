/**
 * The README's tour runs as written against the sample build, so it cannot go stale: every curl
 * line is sent (with $B and $H filled in), must answer 200, and what the comment under it shows
 * must be in the answer: each `"key":value` pair somewhere in the JSON, each bare quoted phrase
 * somewhere in its text. Elisions (…) are free.
 */
import * as fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startPriorArt, type PriorArtFixture } from "../prior-art/support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

interface TourStep {
  readonly command: string
  readonly method: string
  readonly url: string
  readonly body?: string
  /** The comment lines shown with the command (its expected answer, in part). */
  readonly shown: string
}

/** The ```sh block under "## A tour". */
const tourBlock = () => {
  const readme = fs.readFileSync("README.md", "utf8")
  const section = readme.slice(readme.indexOf("## A tour"))
  const start = section.indexOf("```sh\n") + "```sh\n".length
  return section.slice(start, section.indexOf("\n```", start))
}

/** Shell words of one command: quotes kept together (across lines), backslash-newline joins lines. */
const words = (text: string) => {
  const out: string[] = []
  let word = ""
  let quote: string | undefined
  let inWord = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote) {
      if (c === quote) quote = undefined
      else word += c
    } else if (c === "'" || c === '"') {
      quote = c
      inWord = true
    } else if (c === "\\" && text[i + 1] === "\n") i++
    else if (/\s/.test(c)) {
      if (inWord) out.push(word)
      word = ""
      inWord = false
    } else {
      word += c
      inWord = true
    }
  }
  if (inWord) out.push(word)
  return out
}

/** Splits the block into commands (a command may span lines inside quotes or after a backslash) with their comments. */
const tourSteps = (block: string): TourStep[] => {
  const steps: Array<{ command: string; shown: string[] }> = []
  let pending = ""
  let quote: string | undefined
  for (const line of block.split("\n")) {
    if (!pending && /^\s*#/.test(line)) {
      // A comment after a command shows its answer; one before the first command of a group describes it.
      const last = steps.at(-1)
      if (last && /^#(\s*\{|\s{2,})/.test(line)) last.shown.push(line.replace(/^#\s?/, ""))
      continue
    }
    if (!pending && !line.trim()) continue
    let text = line
    let trailing = ""
    if (!quote) {
      const hash = line.search(/\s#\s/)
      if (hash >= 0 && !/'[^']*#/.test(line)) {
        text = line.slice(0, hash)
        trailing = line.slice(hash).replace(/^\s*#\s?/, "")
      }
    }
    pending += (pending ? "\n" : "") + text
    for (const c of text) if (c === "'" || c === '"') quote = quote === c ? undefined : quote ?? c
    if (quote || /\\\s*$/.test(text)) continue
    steps.push({ command: pending, shown: trailing ? [trailing] : [] })
    pending = ""
  }
  return steps
    .filter((s) => s.command.trim().startsWith("curl"))
    .map(({ command, shown }) => {
      const w = words(command)
      const method = w[w.indexOf("-X") + 1] && w.includes("-X") ? w[w.indexOf("-X") + 1] : "GET"
      const url = w.find((x) => x.startsWith("$B"))!
      const body = w.includes("-d") ? w[w.indexOf("-d") + 1] : undefined
      return { command, method, url, body, shown: shown.join(" ") }
    })
}

/** `"key":value` pairs (scalars) shown in a comment, and bare quoted phrases. */
const expectations = (shown: string) => {
  const pairs = [...shown.matchAll(/"([A-Za-z_][\w]*)":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)/g)].map(([, key, value]) => ({
    key,
    value: JSON.parse(value) as unknown
  }))
  const withoutPairs = shown.replace(/"[A-Za-z_][\w]*":("(?:[^"\\]|\\.)*"|[^,}\]]*)/g, "").replace(/"[A-Za-z_][\w]*":/g, "")
  const phrases = [...withoutPairs.matchAll(/"([^"…]{3,})"/g)].map(([, p]) => p)
  return { pairs, phrases }
}

/** Whether `key` has `value` anywhere in the JSON (numbers as shown: the README rounds them). */
const hasPair = (json: unknown, key: string, value: unknown): boolean => {
  if (Array.isArray(json)) return json.some((x) => hasPair(x, key, value))
  if (!json || typeof json !== "object") return false
  for (const [k, v] of Object.entries(json)) {
    if (k === key) {
      if (typeof value === "number" && typeof v === "number") {
        const decimals = (String(value).split(".")[1] ?? "").length
        if (Number(v.toFixed(decimals)) === value) return true
      } else if (typeof value === "string" && value.includes("…") && typeof v === "string") {
        // An elided text: its parts in order, the first at the start.
        const parts = value.split("…").filter((p) => p.length > 0)
        let at = 0
        if (parts.every((p, i) => (at = v.indexOf(p, at)) >= 0 && (i > 0 || at === 0))) return true
      } else if (v === value) return true
    }
    if (hasPair(v, key, value)) return true
  }
  return false
}

let fixture: PriorArtFixture
const steps = tourSteps(tourBlock())

beforeAll(async () => {
  fixture = await startPriorArt(sampleDir)
}, 300_000)

afterAll(async () => {
  await fixture?.close()
})

describe("the README tour, run against the sample build", () => {
  it("has the tour's requests", () => {
    expect(steps.length).toBeGreaterThanOrEqual(10)
  })

  it.each(steps.map((s) => [`${s.method} ${s.url}`, s] as const))("%s answers what the README shows", async (_, step) => {
    const url = step.url.replace("$B", `${fixture.server.url}/api/v1`)
    const response = await fetch(url, {
      method: step.method,
      headers: { authorization: `Bearer ${fixture.key}`, ...(step.body ? { "content-type": "application/json" } : {}) },
      body: step.body
    })
    const text = await response.text()
    expect(response.status, text.slice(0, 300)).toBe(200)
    const json = JSON.parse(text) as unknown
    const { pairs, phrases } = expectations(step.shown)
    for (const { key, value } of pairs) expect(hasPair(json, key, value), `${key}: ${JSON.stringify(value)} in ${text.slice(0, 400)}`).toBe(true)
    for (const phrase of phrases) expect(text, `"${phrase}"`).toContain(phrase)
    // A graph example must show a graph, not an empty one.
    if (/\/graph\//.test(step.url)) {
      const graph = json as { outgoing?: unknown[]; incoming?: unknown[] }
      expect((graph.outgoing?.length ?? 0) + (graph.incoming?.length ?? 0)).toBeGreaterThan(0)
    }
  })
})
