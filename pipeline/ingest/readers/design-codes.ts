/**
 * The USPTO Design Search Code Manual as TSV `code, level, parent, description, guidelines,
 * excludes`: categories ("01"), divisions ("01.01") and sections ("01.01.01"). The manual's own
 * gaps are kept as published (division 03.25 is missing though its sections exist), so a
 * section's parent may name a code with no row of its own.
 */
import { type CorpusReader, row, skip } from "../../../core/corpus/reader.ts"
import { isSkip, tsvRecords } from "./tsv.ts"

const COLUMNS = ["code", "level", "parent", "description", "guidelines", "excludes"]
/** Level names by the number of two-digit groups in the code. */
const LEVELS: Record<number, string> = { 1: "category", 2: "division", 3: "section" }

export const designCodeReader: CorpusReader = async function* (file) {
  for await (const r of tsvRecords(file, COLUMNS)) {
    if (isSkip(r)) {
      yield r
      continue
    }
    const { at, field, optional } = r
    const code = field("code")
    if (!/^\d{2}(?:\.\d{2}){0,2}$/.test(code)) {
      yield skip(file.path, at, `not a design code: ${code.slice(0, 20)}`)
      continue
    }
    const expected = LEVELS[code.split(".").length]
    const level = field("level").toLowerCase()
    if (level !== expected) {
      yield skip(file.path, at, `level "${level.slice(0, 20)}" does not fit code ${code} (expected ${expected})`)
      continue
    }
    const description = field("description")
    if (description === "") {
      yield skip(file.path, at, `no description for ${code}`)
      continue
    }
    // The parent is implied by the code itself; the column is checked against it, not trusted over it.
    const implied = code.includes(".") ? code.slice(0, code.lastIndexOf(".")) : null
    const parent = optional("parent")
    if (parent !== implied) {
      yield skip(file.path, at, `parent ${parent ?? "(none)"} does not fit code ${code}`)
      continue
    }
    yield row("design_codes", {
      code,
      level,
      parent,
      description,
      guidelines: optional("guidelines"),
      excludes: optional("excludes")
    })
  }
}
