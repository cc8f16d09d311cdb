/**
 * Claims and description of the v4 ("ICE") dialect.
 */
import type { ClaimRow, DescriptionParagraphRow } from "../../../../core/artifacts/tables.ts"
import { allAt, at, findAll, type XmlElement } from "./dom.ts"
import { claimNumberOfId, claimRow, descriptionRows, markupRefs, type DocContext } from "./rows.ts"

/**
 * Claims with <claim-ref idref="CLM-00001"> dependencies. A claim whose num is a range
 * ("01-18", a block of cancelled claims) has no single number and is left out.
 */
export const iceClaims = (root: XmlElement, ctx: DocContext): ClaimRow[] =>
  allAt(root, "claims/claim").flatMap((c) => {
    const num = c.attrs["num"]
    const claimNum = num !== undefined ? (/^\d+$/.test(num.trim()) ? Number(num) : undefined) : claimNumberOfId(c.attrs["id"])
    if (claimNum === undefined || claimNum <= 0) return []
    return [claimRow(ctx, claimNum, c, markupRefs(findAll(c, "claim-ref"), "idref"))]
  })

const HEADING = new Set(["heading"])
const PARAGRAPH = new Set(["p"])

export const iceDescription = (root: XmlElement, ctx: DocContext): DescriptionParagraphRow[] =>
  descriptionRows(ctx, at(root, "description"), {
    heading: HEADING,
    paragraph: PARAGRAPH,
    paraNum: (p) => p.attrs["num"]?.replace(/\D/g, "") || undefined
  })
