/**
 * Canonical identifiers of the guidance corpora (MPEP sections, EPO Guidelines sections, form
 * paragraphs) and of CPC symbols, shared by the ingest readers and the API so that an id
 * written by an examiner, a user or the source text resolves to the same stored key.
 *
 * Every normaliser returns `undefined` for input that is not an id of its kind rather than
 * guessing, so callers can answer "not found" / "invalid" instead of matching the wrong row.
 */

// ---------------------------------------------------------------------------
// MPEP
// ---------------------------------------------------------------------------

/** One MPEP section number: 706, 2173.05(e), 2106.04(a)(2). Sections carry at most one dot. */
const MPEP_ID = String.raw`\d{3,4}(?:\.\d{1,3})?(?:\([A-Za-z0-9]{1,4}\))*`
const MPEP_ID_WHOLE = new RegExp(String.raw`^(${MPEP_ID})(?:-(${MPEP_ID}))?$`)

/**
 * "2173.05(e)", "MPEP § 2173.05 (E)", " 706.02(j) " → "2173.05(e)"; a published range such as
 * "706.03(f) - 706.03(j)" keeps both ends ("706.03(f)-706.03(j)"). Letters inside parentheses
 * are lower case as the MPEP prints them. Spaces are dropped because ids travel in URL paths.
 */
export const normalizeMpepId = (raw: string): string | undefined => {
  const s = raw
    .replace(/^\s*(?:MPEP)?\s*§*\s*/i, "")
    .replace(/[\s\u00a0]+/g, "")
    .replace(/[\u2010-\u2015]/g, "-")
    .replace(/\(([A-Za-z0-9]+)\)/g, (_, inner: string) => `(${inner.toLowerCase()})`)
  return MPEP_ID_WHOLE.test(s) ? s : undefined
}

/** Chapter of an MPEP section: the hundreds of its number ("201" → "200", "2173.05(e)" → "2100"). */
export const mpepChapterOf = (sectionId: string): string | undefined => {
  const m = /^(\d{3,4})/.exec(sectionId)
  return m ? String(Math.floor(Number(m[1]) / 100) * 100) : undefined
}

// A citation is "MPEP" then optionally "§"/"§§"/"section(s)", then a list of ids joined by
// commas, "and", "or", "through", "to" or a dash ("MPEP §§ 2132.01, 2133.02(a), and 2136.05").
const SEP = String.raw`\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or|through|to)\s|[-\u2013\u2014])\s*(?:§{1,2}\s*)?`
const MPEP_CITATION = new RegExp(
  String.raw`\bMPEP[\s\u00a0]*(?:§{1,2}|[Ss]ections?)?[\s\u00a0]*(${MPEP_ID}(?![\d/])(?:${SEP}${MPEP_ID}(?![\d/]))*)`,
  "g"
)
const MPEP_ID_G = new RegExp(`${MPEP_ID}(?![\\d/])`, "g")

/**
 * MPEP section ids cited in running text, in order, repeats kept: "See MPEP § 2173.05(e)",
 * "MPEP §§ 2104 – 2109 and 2157" (both ends of a range are cited), "See MPEP 706.02".
 */
export const mpepIdsCitedIn = (text: string): string[] => {
  const out: string[] = []
  const t = text.replace(/\u00a0/g, " ")
  for (const m of t.matchAll(MPEP_CITATION)) {
    for (const id of m[1].matchAll(MPEP_ID_G)) {
      const n = normalizeMpepId(id[0])
      if (n) out.push(n)
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// EPO Guidelines
// ---------------------------------------------------------------------------

const DASH = String.raw`[-\u2010-\u2015]`

/**
 * Canonical EPO Guidelines id: part-chapter then section with dots. Accepts the published form
 * and the variants people type: "G-VII, 5.1", "g-vii-5.1", "G-VII 5.1", "G‑VII,\u00a05.1",
 * "GVII5.1" → "G-VII-5.1"; chapter-only "A-I" → "A-I"; part-only "G" → "G". The General Part
 * (published as "GeneralPart, 2.1") becomes "General-2.1".
 */
export const canonicalEpoId = (raw: string): string | undefined => {
  const s = raw.replace(/[\s\u00a0]+/g, " ").trim().replace(/\.$/, "")
  const general = new RegExp(String.raw`^general\s*(?:part)?(?:\s*(?:,|${DASH}|\s)\s*(\d+(?:\.\d+)*))?$`, "i").exec(s)
  if (general) return general[1] ? `General-${general[1]}` : "General"
  const m = new RegExp(String.raw`^([A-Ha-h])(?:\s*${DASH}?\s*([IVXLivxl]+)(?:\s*(?:,|${DASH})?\s*(\d+(?:\.\d+)*))?)?$`).exec(s)
  if (!m) return undefined
  const [, part, chapter, section] = m
  if (!chapter) return part.toUpperCase()
  const roman = chapter.toUpperCase()
  if (!/^(?:XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/.test(roman)) return undefined
  return section ? `${part.toUpperCase()}-${roman}-${section}` : `${part.toUpperCase()}-${roman}`
}

/** Part, chapter and section number of a canonical EPO id ("G-VII-5.1" → G, VII, 5.1). */
export const epoIdParts = (id: string): { part: string; chapter?: string; section?: string } => {
  const [part, ...rest] = id.split("-")
  if (part === "General") return { part, section: rest[0] }
  return { part, chapter: rest[0], section: rest[1] }
}

// "C-V, 4.6", "seeB‑VI, 2" (the flattened text glues words), "A‑IX, 1.2and7.1" (a list goes on
// within the same chapter), "chaptersA‑IItoA-VI" (chapter-only). A part letter must not follow
// another capital or digit and the numeral must not run into a capital ("D-VISA", "ABC-I").
const EPO_SECTION_NO = String.raw`\d+(?:\.\d+)*`
const EPO_CITATION = new RegExp(
  String.raw`(?<![A-Z0-9])([A-H])${DASH}([IVXL]+)(?![A-Z])(?:,[\s\u00a0]*(${EPO_SECTION_NO})((?:[\s\u00a0]*(?:,|and|or|to)[\s\u00a0]*${EPO_SECTION_NO}(?![\d/]))*))?`,
  "g"
)

/**
 * Canonical ids of the EPO Guidelines sections referred to inline, in order, repeats kept
 * (references to the citing section's own part or chapter included).
 */
export const epoIdsCitedIn = (text: string): string[] => {
  const out: string[] = []
  for (const m of text.matchAll(EPO_CITATION)) {
    const [, part, chapter, first, more] = m
    const base = `${part}-${chapter}`
    if (!canonicalEpoId(base)) continue
    if (!first) {
      out.push(base)
      continue
    }
    out.push(`${base}-${first}`)
    for (const n of (more ?? "").matchAll(new RegExp(EPO_SECTION_NO, "g"))) out.push(`${base}-${n[0]}`)
  }
  return out
}

// ---------------------------------------------------------------------------
// Form paragraphs
// ---------------------------------------------------------------------------

/**
 * "¶ 7.34.01", "¶¶ 7.34.01", "FP 7.34.01", "form paragraph 7.40.02.AIA" → "7.34.01" /
 * "7.40.02.aia". Word suffixes are lower case as the MPEP prints them (aia, fti, 03a, h)
 * except the accelerated-examination suffix, which the USPTO index prints as "AE".
 */
export const normalizeFormParagraphCode = (raw: string): string | undefined => {
  const s = raw
    .replace(/^[\s\u00a0]*(?:¶+|fp\b|form\s+paragraphs?)?[\s\u00a0]*/i, "")
    .replace(/[\s\u00a0]+/g, "")
    .replace(/\.$/, "")
  if (!/^\d{1,2}\.\d{1,3}[a-z]?(?:\.[A-Za-z0-9]{1,4})*$/i.test(s)) return undefined
  return s
    .split(".")
    .map((seg) => (/^ae$/i.test(seg) ? "AE" : seg.toLowerCase()))
    .join(".")
}

/** Form-paragraph chapter: the number before the first dot ("7.34.01" → "7"). */
export const formParagraphChapterOf = (code: string): string => code.split(".")[0]

// ---------------------------------------------------------------------------
// CPC
// ---------------------------------------------------------------------------

/**
 * "H04L 9/0643", "h04l9/0643", "H04L   9/0643", "H04L0009/0643" → "H04L9/0643"; section, class
 * and subclass symbols ("H", "H04", "H04L") pass through upper-cased.
 */
export const normalizeCpcSymbol = (raw: string): string | undefined => {
  const s = raw.replace(/[\s\u00a0]+/g, "").toUpperCase()
  if (/^[A-HY](?:\d{2}(?:[A-Z])?)?$/.test(s)) return s
  const m = /^([A-HY]\d{2}[A-Z])0*(\d{1,4})\/(\d{2,6})$/.exec(s)
  return m ? `${m[1]}${m[2]}/${m[3]}` : undefined
}
