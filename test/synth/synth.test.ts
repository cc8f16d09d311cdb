/**
 * `make synth`: a small synthetic corpus in the official formats. Same seed, same bytes (whether
 * written by one thread or several); another seed, other documents; every XML document parses on
 * its own; documents carry numbers, title, abstract, CPC and claims whose references point back;
 * grants cite only documents published before the application was filed; PEDS records parse and
 * list transactions newest first; prosecution rates land where the generator says they do.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { gunzipSync } from "node:zlib"
import { SaxesParser } from "saxes"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { synthesize, type SynthResult } from "../../pipeline/synth/corpus.ts"
import { prosecute } from "../../pipeline/synth/prosecution.ts"
import { docRng, Stream } from "../../pipeline/synth/random.ts"

const sampleDir = path.resolve("pipeline/sample-corpus")
const N = 200
// Few topics, so a small corpus still has earlier documents of the same topic to cite.
const TOPICS = 60
let root: string
let first: SynthResult

const dir = (name: string) => path.join(root, name)

const listFiles = async (base: string): Promise<string[]> => {
  const out: string[] = []
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) await walk(p)
      else out.push(path.relative(base, p))
    }
  }
  await walk(base)
  return out.sort()
}

const digest = async (base: string): Promise<Map<string, string>> => {
  const m = new Map<string, string>()
  for (const f of await listFiles(base)) m.set(f, createHash("sha256").update(await fs.readFile(path.join(base, f))).digest("hex"))
  return m
}

interface ParsedDoc {
  root: string
  appNumber: string
  filingDate: string
  pubNumber: string
  title: string
  abstract: string
  mainCpc: string
  claims: { id: string; refs: string[] }[]
  citations: { number: string; date: string; category: string }[]
  relatedPublication?: string
}

/** Parses one document with saxes (throws on any well-formedness error) and keeps what the tests check. */
const parseDoc = (xml: string): ParsedDoc => {
  const parser = new SaxesParser()
  const stack: string[] = []
  const doc: ParsedDoc = { root: "", appNumber: "", filingDate: "", pubNumber: "", title: "", abstract: "", mainCpc: "", claims: [], citations: [] }
  let text = ""
  let citation: { number: string; date: string; category: string } | undefined
  let cpcParts: string[] = []
  parser.on("error", (e) => {
    throw e
  })
  parser.on("opentag", (tag) => {
    if (stack.length === 0) doc.root = tag.name
    stack.push(tag.name)
    text = ""
    if (tag.name === "claim") doc.claims.push({ id: String(tag.attributes.id), refs: [] })
    if (tag.name === "claim-ref") doc.claims[doc.claims.length - 1].refs.push(String(tag.attributes.idref))
    if (tag.name === "us-citation") citation = { number: "", date: "", category: "" }
    if (tag.name === "classification-cpc" && stack.includes("main-cpc")) cpcParts = []
  })
  parser.on("text", (t) => {
    text += t
    if (stack.includes("abstract")) doc.abstract += t
  })
  parser.on("closetag", (tag) => {
    const within = (name: string) => stack.includes(name)
    const value = text.trim()
    if (tag.name === "doc-number" && within("application-reference")) doc.appNumber = value
    if (tag.name === "date" && within("application-reference")) doc.filingDate = value
    if (tag.name === "doc-number" && within("publication-reference")) doc.pubNumber = value
    if (tag.name === "doc-number" && within("related-publication")) doc.relatedPublication = value
    if (tag.name === "invention-title") doc.title = value
    if (within("main-cpc") && ["section", "class", "subclass", "main-group", "subgroup"].includes(tag.name)) cpcParts.push(value)
    if (tag.name === "classification-cpc" && within("main-cpc")) doc.mainCpc = `${cpcParts.slice(0, 3).join("")}${cpcParts[3]}/${cpcParts[4]}`
    if (citation && tag.name === "doc-number") citation.number = value
    if (citation && tag.name === "date") citation.date = value
    if (citation && tag.name === "category") citation.category = value
    if (tag.name === "us-citation" && citation) {
      doc.citations.push(citation)
      citation = undefined
    }
    stack.pop()
    text = ""
  })
  parser.write(xml).close()
  return doc
}

const readDocs = async (base: string, folder: string): Promise<{ file: string; docs: ParsedDoc[] }[]> => {
  const out: { file: string; docs: ParsedDoc[] }[] = []
  for (const file of (await fs.readdir(path.join(base, folder))).sort()) {
    const text = gunzipSync(await fs.readFile(path.join(base, folder, file))).toString("utf8")
    const parts = text.split(/(?=<\?xml )/).filter((p) => p.trim().length > 0)
    out.push({ file, docs: parts.map(parseDoc) })
  }
  return out
}

const readPeds = async (base: string): Promise<Record<string, any>[]> => {
  const records: Record<string, any>[] = []
  for (const file of (await fs.readdir(path.join(base, "peds"))).sort()) {
    records.push(...JSON.parse(gunzipSync(await fs.readFile(path.join(base, "peds", file))).toString("utf8")))
  }
  return records
}

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "synth-test-"))
  first = await synthesize({ n: N, seed: 7, out: dir("a"), sampleDir, topics: TOPICS, workers: 0 })
  await synthesize({ n: N, seed: 7, out: dir("b"), sampleDir, topics: TOPICS, workers: 2 })
  await synthesize({ n: N, seed: 8, out: dir("c"), sampleDir, topics: TOPICS, workers: 0 })
})

afterAll(async () => {
  if (root) await fs.rm(root, { recursive: true, force: true })
})

describe("make synth", () => {
  it("writes a complete corpus: weekly XML files, PEDS, the reference folders and a README", async () => {
    const files = await listFiles(dir("a"))
    expect(files.filter((f) => /^uspto\/grants\/ipg\d{6}\.xml\.gz$/.test(f)).length).toBe(first.grantFiles)
    expect(files.filter((f) => /^uspto\/applications\/ipa\d{6}\.xml\.gz$/.test(f)).length).toBe(first.applicationFiles)
    expect(files).toContain("peds/synthetic-peds-0001.json.gz")
    for (const f of ["cpc/cpc-section-A_20250501.txt.gz", "mpep/mpep-0700.html.gz", "epo/epo-guidelines-2024.csv.gz", "form-paragraphs/form-paragraph-index.tsv", "design-codes/design-codes.tsv.gz"]) {
      expect(files).toContain(f)
    }
    const readme = await fs.readFile(path.join(dir("a"), "README.md"), "utf8")
    expect(readme).toMatch(/synthetic/i)
    expect(readme).toContain("SEED=7")
    expect(first.grants).toBeGreaterThan(N * 0.35)
  })

  it("refuses to write into a folder that holds something other than a synthetic corpus", async () => {
    const other = dir("other")
    await fs.mkdir(other, { recursive: true })
    await fs.writeFile(path.join(other, "notes.txt"), "keep me")
    await expect(synthesize({ n: 5, seed: 1, out: other, sampleDir, workers: 0 })).rejects.toThrow(/not a synthetic corpus/)
    expect(await fs.readFile(path.join(other, "notes.txt"), "utf8")).toBe("keep me")
  })

  it("gives byte-identical output for the same seed, with or without worker threads", async () => {
    expect(await digest(dir("b"))).toEqual(await digest(dir("a")))
  })

  it("gives different documents for a different seed", async () => {
    const a = await digest(dir("a"))
    const c = await digest(dir("c"))
    const changed = [...a].filter(([f, h]) => f.startsWith("uspto/") && c.get(f) !== h)
    expect(changed.length).toBeGreaterThan(0)
    expect(c.get("cpc/cpc-section-A_20250501.txt.gz")).toBe(a.get("cpc/cpc-section-A_20250501.txt.gz"))
  })

  it("writes well-formed, complete application and grant documents", async () => {
    const apps = await readDocs(dir("a"), "uspto/applications")
    const grants = await readDocs(dir("a"), "uspto/grants")
    const appDocs = apps.flatMap((f) => f.docs)
    const grantDocs = grants.flatMap((f) => f.docs)
    expect(appDocs.length).toBe(N)
    expect(grantDocs.length).toBe(first.grants)
    for (const d of [...appDocs, ...grantDocs]) {
      expect(d.appNumber).toMatch(/^1[3-7]\d{6}$/)
      expect(d.title.length).toBeGreaterThan(3)
      expect(d.abstract.trim().length).toBeGreaterThan(50)
      expect(d.mainCpc).toMatch(/^[A-H]\d\d[A-Z]\d+\/\d+$/)
      expect(d.claims.length).toBeGreaterThanOrEqual(8)
      d.claims.forEach((c, k) => {
        expect(c.id).toBe(`CLM-${String(k + 1).padStart(5, "0")}`)
        for (const ref of c.refs) expect(Number(ref.slice(4))).toBeLessThan(k + 1)
      })
      expect(d.claims.some((c) => c.refs.length > 0)).toBe(true)
    }
    for (const d of appDocs) {
      expect(d.root).toBe("us-patent-application")
      expect(d.pubNumber).toMatch(/^20\d{9}$/)
    }
    for (const d of grantDocs) {
      expect(d.root).toBe("us-patent-grant")
      expect(d.pubNumber).toMatch(/^\d{7}$/)
    }
    // One file a week: every document in a weekly file carries that file's date.
    for (const f of grants) expect(f.file).toMatch(/^ipg\d{6}\.xml\.gz$/)
  })

  it("numbers grants upward with the issue date and links each to its application's publication", async () => {
    const grants = (await readDocs(dir("a"), "uspto/grants")).flatMap((f) => f.docs)
    const apps = new Map((await readDocs(dir("a"), "uspto/applications")).flatMap((f) => f.docs).map((d) => [d.appNumber, d]))
    const numbers = grants.map((g) => Number(g.pubNumber))
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers)
    for (const g of grants) {
      expect(apps.get(g.appNumber)?.pubNumber).toBe(g.relatedPublication)
      expect(apps.get(g.appNumber)?.title).toBe(g.title)
    }
  })

  it("cites only documents published before the citing application was filed, mostly near ones", async () => {
    const grants = (await readDocs(dir("a"), "uspto/grants")).flatMap((f) => f.docs)
    const apps = (await readDocs(dir("a"), "uspto/applications")).flatMap((f) => f.docs)
    const cpcOf = new Map<string, string>([...apps.map((d) => [d.pubNumber, d.mainCpc] as const), ...grants.map((d) => [d.pubNumber, d.mainCpc] as const)])
    let inCorpus = 0
    let sameSubclass = 0
    for (const g of grants) {
      expect(g.citations.length).toBeGreaterThan(0)
      for (const c of g.citations) {
        expect(c.date < g.filingDate).toBe(true)
        expect(["cited by examiner", "cited by applicant"]).toContain(c.category)
        const cited = cpcOf.get(c.number)
        if (cited !== undefined) {
          inCorpus++
          if (cited.slice(0, 4) === g.mainCpc.slice(0, 4)) sameSubclass++
        }
      }
    }
    expect(inCorpus).toBeGreaterThanOrEqual(10)
    expect(sameSubclass / inCorpus).toBeGreaterThan(0.7)
    expect(grants.flatMap((g) => g.citations).some((c) => c.category === "cited by examiner")).toBe(true)
  })

  it("writes PEDS records that parse, match the XML, and list transactions newest first", async () => {
    const records = await readPeds(dir("a"))
    expect(records.length).toBe(N)
    const grants = new Map((await readDocs(dir("a"), "uspto/grants")).flatMap((f) => f.docs).map((d) => [d.appNumber, d.pubNumber]))
    for (const r of records) {
      expect(r.applId).toMatch(/^1[3-7]\d{6}$/)
      expect(r.appGrpArtNumber).toMatch(/^\d{4}$/)
      expect(r.appExamName).toMatch(/^[A-Z' -]+, [A-Z]/)
      expect(typeof r.patentTitle).toBe("string")
      const dates = (r.transactions as { recordDate: string }[]).map((t) => t.recordDate)
      expect(dates.length).toBeGreaterThan(5)
      expect([...dates].sort().reverse()).toEqual(dates)
      expect(r.patentNumber).toBe(grants.get(r.applId))
      if (r.patentNumber) expect(r.appStatus).toBe("Patented Case")
    }
    const codes = new Set(records.flatMap((r) => (r.transactions as { code: string }[]).map((t) => t.code)))
    for (const c of ["CTNF", "CTFR", "N/=.", "MN/=.", "ABN2", "RCEX"]) expect(codes).toContain(c)
    const continued = records.filter((r) => r.parentContinuity?.some((p: any) => /Continuation/.test(p.applicationStatusDescription)))
    expect(continued.length).toBeGreaterThan(0)
    const byId = new Map(records.map((r) => [r.applId, r]))
    for (const r of continued) {
      const parent = r.parentContinuity.find((p: any) => /Continuation/.test(p.applicationStatusDescription))
      expect(byId.get(parent.claimApplicationNumberText)?.childContinuity?.[0]?.claimApplicationNumberText).toBe(r.applId)
    }
  })
})

describe("prosecution model", () => {
  it("lands near USPTO rates: allowance, RCEs, interviews, first-action pendency", () => {
    const n = 20_000
    let issued = 0
    let abandoned = 0
    let rce = 0
    let interviewed = 0
    let months = 0
    for (let i = 0; i < n; i++) {
      const o = prosecute(docRng(1, i, Stream.prosecution), { filingDay: 16_000, pubDay: 16_550, smallEntity: false })
      if (o.issueDay > 0) issued++
      else if (o.abandonedDay > 0) abandoned++
      if (o.rces > 0) rce++
      if (o.interviews > 0) interviewed++
      months += (o.firstActionDay - 16_000) / 30.44
    }
    expect(issued / (issued + abandoned)).toBeGreaterThan(0.55)
    expect(issued / (issued + abandoned)).toBeLessThan(0.67)
    expect(rce / n).toBeGreaterThan(0.22)
    expect(rce / n).toBeLessThan(0.32)
    expect(interviewed / n).toBeGreaterThan(0.18)
    expect(interviewed / n).toBeLessThan(0.32)
    expect(months / n).toBeGreaterThan(14)
    expect(months / n).toBeLessThan(22)
  })
})
