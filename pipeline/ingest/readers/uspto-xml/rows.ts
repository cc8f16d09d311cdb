/**
 * Row builders shared by every dialect: claims (number stripped, dependencies from markup or,
 * failing that, from the text) and description paragraphs (nearest heading carried along).
 */
import type { ClaimRow, DescriptionParagraphRow } from "../../../../core/artifacts/tables.ts"
import { parseClaimDependencies } from "../../../../core/claims/dependencies.ts"
import { elements, rawText, type XmlElement } from "./dom.ts"
import { cleanText, type TextOptions } from "./text.ts"

export type UsptoSource = "uspto-grant-xml" | "uspto-app-xml"

export interface DocContext {
  readonly appNum: string
  readonly source: UsptoSource
  readonly filingYear?: number | undefined
}

/** "CLM-00012" → 12. */
export const claimNumberOfId = (id: string | undefined): number | undefined => {
  const m = /(\d+)\s*$/.exec(id ?? "")
  return m ? Number(m[1]) : undefined
}

/**
 * Claim numbers that reference markup points at: the idref ("CLM-00003") plus the numbers in the
 * reference's own text, so a reference printed as "claims 1-3" yields 1, 2 and 3.
 */
export const markupRefs = (refs: ReadonlyArray<XmlElement>, idAttr: string): number[] =>
  refs.flatMap((r) => {
    const id = claimNumberOfId(r.attrs[idAttr])
    return [...(id === undefined ? [] : [id]), ...parseClaimDependencies(`claims ${rawText(r).replace(/^\s*claims?\s*/i, "")}`)]
  })

/** The claim's own printed number at the start of its text ("12. A method" → "A method"). */
const LEADING_NUMBER = /^\d+\s*[.)]\s*/

/**
 * One claim row. `refs` are the claims the markup points at (<claim-ref>, <CLREF>,
 * <dependent-claim-reference>); only a claim without such markup has its text parsed, and then
 * only earlier claims count, since a claim can depend only on a preceding one.
 */
export const claimRow = (ctx: DocContext, claimNum: number, el: XmlElement, refs: ReadonlyArray<number>): ClaimRow => {
  const text = cleanText(el).replace(LEADING_NUMBER, "")
  const deps = refs.length > 0 ? refs.filter((n) => n !== claimNum) : parseClaimDependencies(text).filter((n) => n < claimNum)
  const depends_on = [...new Set(deps)].sort((a, b) => a - b)
  return { app_num: ctx.appNum, source: ctx.source, claim_num: claimNum, text, depends_on, is_independent: depends_on.length === 0 }
}

export interface DescriptionShape {
  readonly heading: ReadonlySet<string>
  readonly paragraph: ReadonlySet<string>
  /** The printed paragraph number, where the dialect has one. */
  readonly paraNum: (p: XmlElement) => string | undefined
  readonly text?: TextOptions
}

/** Description paragraphs in document order, each with the nearest preceding heading. */
export const descriptionRows = (ctx: DocContext, container: XmlElement | undefined, shape: DescriptionShape): DescriptionParagraphRow[] => {
  const rows: DescriptionParagraphRow[] = []
  let heading: string | undefined
  const walk = (el: XmlElement): void => {
    for (const c of elements(el)) {
      if (shape.heading.has(c.name)) {
        const h = cleanText(c)
        if (h !== "") heading = h
      } else if (shape.paragraph.has(c.name)) {
        const text = cleanText(c, shape.text)
        if (text === "") continue
        rows.push({
          app_num: ctx.appNum,
          source: ctx.source,
          seq: rows.length,
          para_num: shape.paraNum(c) ?? null,
          heading: heading ?? null,
          text
        })
      } else walk(c)
    }
  }
  if (container) walk(container)
  return rows
}
