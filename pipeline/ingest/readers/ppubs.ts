/**
 * Readers for USPTO Patent Public Search (ppubs) JSON: arrays of search-hit documents.
 *
 * - full text (`ppubsFulltextReader`): claims, description and abstract as HTML, CPC, examiners,
 *   cited references with their "cited by examiner/applicant/other" category, continuity.
 * - biblio (`ppubsBiblioReader`): the same hit shape without text, plus a newer snake_case hit
 *   shape (`appl_id`, `patent_title`, `cpc_inventive` …) that ppubs returns for some queries;
 *   both are read.
 *
 * OCR-scanned documents (type USOCR) carry no application number; they are skipped because every
 * table is keyed by application.
 */
import type { ReaderEvent } from "../../../core/corpus/reader.ts"
import { type CorpusReader, row } from "../../../core/corpus/reader.ts"
import { htmlToInlineText, htmlToLines } from "../../../core/text/html.ts"
import { describeBy, readJsonRecords } from "./json-array.ts"
import {
  RecordSkip, appNum, artUnit, continuityRelation, cpcSymbol, docType, first, isoDate, looseDate, pubNum, str, strs,
  surnameFirst
} from "./json-fields.ts"
import { splitClaims, splitDescription } from "./ppubs-text.ts"

type Source = "ppubs-fulltext" | "ppubs-biblio"
type Rec = Record<string, unknown>

/** The fields both hit shapes (camelCase and snake_case) share, under one set of names. */
interface PpubsDoc {
  readonly type: string | null
  readonly appNum: string | null
  readonly filingDate: string | null
  readonly pubNum: string | null
  readonly kind: string | null
  readonly pubDate: string | null
  readonly title: string | null
  readonly abstractHtml: string | null
  readonly assignees: string[]
  readonly inventors: string[]
  readonly primaryExaminer: string | null
  readonly assistantExaminers: string[]
  readonly artUnit: string | null
  readonly cpcInventive: string[]
  readonly cpcAdditional: string[]
  /** "US 5385382 A Single, II 19950100 cited by examiner A47C 7/74 297/180.13" lines. */
  readonly usRefs: string[]
  /** Bare cited US numbers (biblio), used where usRefs is absent. */
  readonly urpn: string[]
}

// ppubs text fields are HTML: hit highlighting ("<span class=highlight18>System</span>") and entities ("&amp;").
const text = (v: unknown): string | null => {
  const s = str(v)
  return s === null ? null : htmlToInlineText(s) || null
}
const texts = (v: unknown): string[] => strs(v).map(text).filter((s): s is string => s !== null)

const splitList = (v: unknown): string[] => strs(v).flatMap((s) => s.split(";")).map((s) => s.trim()).filter(Boolean)

const normalise = (r: Rec): PpubsDoc => {
  const snake = !("applicationNumber" in r) && ("appl_id" in r || "application_number" in r || "kind_code" in r)
  if (snake) {
    return {
      type: str(r.type),
      appNum: appNum(r.appl_id ?? r.application_number),
      filingDate: isoDate(r.app_filing_date ?? r.application_filing_date, "filing date"),
      pubNum: pubNum(r.publication_number ?? r.publication_reference_document_number),
      kind: str(r.kind_code),
      pubDate: isoDate(r.publication_date ?? r.date_published, "publication date"),
      title: text(r.patent_title ?? r.invention_title),
      abstractHtml: null,
      assignees: texts(r.assignee_name).length ? texts(r.assignee_name) : texts(r.applicant_name),
      inventors: [],
      primaryExaminer: text(r.primary_examiner),
      assistantExaminers: texts(r.assistant_examiner),
      artUnit: null,
      cpcInventive: splitList(r.cpc_inventive),
      cpcAdditional: splitList(r.cpc_additional),
      usRefs: [],
      urpn: strs(r.urpn)
    }
  }
  // examinerGroup is 0 / "0" where ppubs has no art unit; the older hits carry it in examinerGroupHtml only.
  const group = artUnit(r.examinerGroup) ?? artUnit(first(r.examinerGroupHtml))
  return {
    type: str(r.type),
    appNum: appNum(r.applicationSeriesAndNumber) ?? appNum(r.applicationNumber),
    filingDate: isoDate(first(r.applicationFilingDate), "filing date"),
    pubNum: pubNum(r.publicationReferenceDocumentNumber ?? r.pubRefDocNumber),
    kind: str(r.applicationKindCode) ?? str(r.kindCode),
    pubDate: isoDate(r.datePublished, "publication date"),
    title: text(r.inventionTitle),
    abstractHtml: str(r.abstractHtml),
    assignees: texts(r.assigneeName).length ? texts(r.assigneeName) : texts(r.applicantName),
    inventors: texts(r.inventorsName).map((n) => n.replace(/\s*;\s*/, ", ")),
    primaryExaminer: text(r.primaryExaminer),
    assistantExaminers: texts(r.assistantExaminer),
    artUnit: group,
    cpcInventive: splitList(r.cpcInventiveFlattened),
    cpcAdditional: splitList(r.cpcAdditionalFlattened),
    usRefs: strs(r.usRefGroup),
    urpn: strs(r.urpn)
  }
}

const isGrant = (d: PpubsDoc) => d.type === "USPAT" || d.type === "USOCR"

// ---------------------------------------------------------------------------
// Rows shared by both files
// ---------------------------------------------------------------------------

const applicationRow = (d: PpubsDoc & { appNum: string }, source: Source, file: string): ReaderEvent =>
  row("application_records", {
    app_num: d.appNum,
    source,
    source_file: file,
    pub_num: d.pubNum,
    kind: d.kind,
    doc_type: docType(d.kind, d.pubNum),
    title: d.title,
    abstract: d.abstractHtml ? htmlToInlineText(d.abstractHtml) || null : null,
    filing_date: d.filingDate,
    pub_date: d.pubDate,
    grant_date: isGrant(d) ? d.pubDate : null,
    country: "US",
    assignees: d.assignees,
    inventors: d.inventors,
    examiner: surnameFirst(d.primaryExaminer),
    art_unit: d.artUnit,
    status: isGrant(d) ? "granted" : "published",
    status_date: d.pubDate
  })

const examinerRows = (d: PpubsDoc & { appNum: string }, source: Source): ReaderEvent[] => {
  const named = [
    { name: surnameFirst(d.primaryExaminer), role: "primary" },
    ...d.assistantExaminers.map((n) => ({ name: surnameFirst(n), role: "assistant" }))
  ]
  return named
    .filter((e): e is { name: string; role: string } => e.name !== null)
    .map((e) => row("examiner_records", { full_name: e.name, art_unit: d.artUnit, app_num: d.appNum, role: e.role, source }))
}

const cpcRows = (d: PpubsDoc & { appNum: string }, source: Source): ReaderEvent[] => {
  const seen = new Set<string>()
  const out: ReaderEvent[] = []
  const add = (raw: string, inventive: boolean) => {
    const symbol = cpcSymbol(raw)
    if (!symbol || seen.has(symbol)) return
    seen.add(symbol)
    out.push(row("cpc_assignments", {
      app_num: d.appNum, source, symbol, subclass: symbol.slice(0, 4), section: symbol[0],
      is_inventive: inventive, is_main: inventive && out.length === 0
    }))
  }
  for (const s of d.cpcInventive) add(s, true)
  for (const s of d.cpcAdditional) add(s, false)
  return out
}

interface ParsedRef {
  readonly doc: string
  readonly kind: string | null
  readonly date: string | null
  readonly category: string | null
}

/** One usRefGroup line: optional country, number, optional kind, 8-digit date, then name/classes and "cited by …" in either order. */
export const parseUsRef = (line: string): ParsedRef | null => {
  const m = /^(?:US\s+)?(\S+)(?:\s+([A-Z]\d?)(?=\s))?/.exec(line.trim())
  if (!m) return null
  const doc = pubNum(m[1])
  if (!doc) return null
  const date = /\s(\d{8})(?:\s|$)/.exec(line)
  const cat = /cited by (examiner|applicant|other|third party)/i.exec(line)
  return { doc, kind: m[2] ?? null, date: date ? looseDate(date[1]) : null, category: cat ? `cited by ${cat[1].toLowerCase()}` : null }
}

const citationRows = (d: PpubsDoc & { appNum: string }, source: Source): ReaderEvent[] => {
  const refs: ParsedRef[] = d.usRefs.length
    ? d.usRefs.map(parseUsRef).filter((r): r is ParsedRef => r !== null)
    : d.urpn.map((u) => pubNum(u)).filter((x): x is string => x !== null).map((doc) => ({ doc, kind: null, date: null, category: null }))
  const byDoc = new Map<string, ParsedRef>()
  for (const r of refs) {
    const prev = byDoc.get(r.doc)
    if (!prev || (r.category === "cited by examiner" && prev.category !== "cited by examiner")) byDoc.set(r.doc, r)
  }
  const year = d.filingDate ? Number(d.filingDate.slice(0, 4)) : null
  return [...byDoc.values()].map((r) =>
    row("citations", {
      citing_app: d.appNum, source, cited_doc: r.doc, cited_country: "US", cited_kind: r.kind, cited_date: r.date,
      examiner_cited: r.category === "cited by examiner", category: r.category ?? "unknown", citing_filing_year: year
    })
  )
}

// ---------------------------------------------------------------------------
// Continuity (full text only)
// ---------------------------------------------------------------------------

export interface ParsedRelation {
  readonly child: string
  readonly parent: string
  readonly relation: string
  readonly parentFilingDate: string | null
}

// "division parent-doc US 16523162 20190726 US 10967768 child-doc US 17143605" (grants)
const GRANT_REL = /\b([a-z][a-z-]*) parent-doc [A-Z]{2} (\S+)(?: (\d{8}))?.*?\bchild-doc [A-Z]{2} (\S+)/g
// "parent US continuation-in-part 10597631 00 20060802 PENDING child US 12342091" (pre-grant publications)
const PGPUB_REL = /\bparent [A-Z]{2} ([a-z][a-z-]*) (\S+)(?: 00)?(?: (\d{8}))?.*?\bchild [A-Z]{2} (\S+)/g
const PROVISIONAL = /\bus-provisional-application [A-Z]{2} (\S+)(?: (\d{8}))?/g
// Older grants state continuity only in prose.
const PROSE_REL = /\b(continuation-in-part|continuation in part|continuation|divisional|division)\b[^;]{0,200}?\b(?:Ser(?:ial)?\.?\s*No\.?|Application No\.?)\s*(\d{2}\/[\d,]{6,9})/gi
const PROSE_PRO = /\bprovisional\b[^;]{0,80}?\b(?:Ser(?:ial)?\.?\s*No\.?|Application No\.?|Applications?)\s*(?:Ser(?:ial)?\.?\s*No\.?\s*)?(6[0-3]\/[\d,]{7})/gi

/** Relations from ppubs `continuityData` (structured lines, or prose in older grants). PCT parents are left out. */
export const parsePpubsContinuity = (entries: ReadonlyArray<string>, self: string): ParsedRelation[] => {
  const text = entries.flatMap((e) => htmlToLines(e, { newlineIsBreak: true })).join(" ")
  const out: ParsedRelation[] = []
  const add = (child: unknown, parent: unknown, relation: string, date: string | undefined) => {
    const c = appNum(child)
    const p = appNum(parent)
    if (c && p && c !== p) out.push({ child: c, parent: p, relation, parentFilingDate: date ? looseDate(date) : null })
  }
  for (const m of text.matchAll(GRANT_REL)) add(m[4], m[2], continuityRelation(m[1]), m[3])
  for (const m of text.matchAll(PGPUB_REL)) add(m[4], m[2], continuityRelation(m[1]), m[3])
  for (const m of text.matchAll(PROVISIONAL)) add(self, m[1], "PRO", m[2])
  if (out.length === 0) {
    for (const m of text.matchAll(PROSE_REL)) add(self, m[2], continuityRelation(m[1]), undefined)
    for (const m of text.matchAll(PROSE_PRO)) add(self, m[1], "PRO", undefined)
  }
  const seen = new Set<string>()
  return out.filter((r) => {
    const k = `${r.child}|${r.parent}|${r.relation}`
    return seen.has(k) ? false : (seen.add(k), true)
  })
}

// ---------------------------------------------------------------------------
// Readers
// ---------------------------------------------------------------------------

const withAppNum = (d: PpubsDoc): PpubsDoc & { appNum: string } => {
  if (!d.appNum) {
    throw new RecordSkip(d.type === "USOCR" ? "OCR-scanned document without an application number" : "no US application number")
  }
  return d as PpubsDoc & { appNum: string }
}

const describe = describeBy("guid", (r) => r.guid)

const fulltextEvents = (file: string) => (r: Rec): ReaderEvent[] => {
  const d = withAppNum(normalise(r))
  const source: Source = "ppubs-fulltext"
  const claims = splitClaims(typeof r.claimsHtml === "string" ? r.claimsHtml : null)
  // Raw strings, not str(): these fields use bare newlines as line breaks.
  const html = (v: unknown) => (typeof v === "string" ? v : null)
  const paragraphs = splitDescription([
    { html: html(r.backgroundTextHtml), newlineIsBreak: true },
    ...(Array.isArray(r.governmentInterest) ? r.governmentInterest : [r.governmentInterest]).map((g) => ({ html: html(g), newlineIsBreak: true })),
    { html: html(r.briefHtml) },
    { html: html(r.descriptionHtml) }
  ])
  return [
    applicationRow(d, source, file),
    ...examinerRows(d, source),
    ...claims.map((c) =>
      row("claims", {
        app_num: d.appNum, source, claim_num: c.num, text: c.text, depends_on: c.dependsOn, is_independent: c.dependsOn.length === 0
      })
    ),
    ...paragraphs.map((p, seq) =>
      row("description_paragraphs", { app_num: d.appNum, source, seq, para_num: p.paraNum, heading: p.heading, text: p.text })
    ),
    ...cpcRows(d, source),
    ...citationRows(d, source),
    ...parsePpubsContinuity(strs(r.continuityData), d.appNum).map((c) =>
      row("continuity", { child_app: c.child, parent_app: c.parent, relation: c.relation, parent_filing_date: c.parentFilingDate, source })
    )
  ]
}

const biblioEvents = (file: string) => (r: Rec): ReaderEvent[] => {
  const d = withAppNum(normalise(r))
  const source: Source = "ppubs-biblio"
  return [applicationRow(d, source, file), ...examinerRows(d, source), ...cpcRows(d, source), ...citationRows(d, source)]
}

export const ppubsFulltextReader: CorpusReader = (file) => readJsonRecords(file, describe, fulltextEvents(file.path))

export const ppubsBiblioReader: CorpusReader = (file) => readJsonRecords(file, describe, biblioEvents(file.path))
