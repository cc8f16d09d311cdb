/**
 * Named character entities in USPTO full text.
 *
 * The DTDs pull in the ISO 8879 entity sets, which a non-validating parser never reads, so every
 * `&mdash;` or `&lgr;` would be an "undefined entity" error. HTML5 covers most ISO names
 * (node-html-parser knows them); ISO Greek-1 (`&agr;`, `&Dgr;` …) is not in HTML5 and is listed
 * here. An entity nobody knows becomes empty text rather than failing the document.
 */
import { parse } from "node-html-parser"

const ISO_GREEK: Record<string, string> = {
  agr: "α", bgr: "β", ggr: "γ", dgr: "δ", egr: "ε", zgr: "ζ", eegr: "η", thgr: "θ", igr: "ι", kgr: "κ",
  lgr: "λ", mgr: "μ", ngr: "ν", xgr: "ξ", ogr: "ο", pgr: "π", rgr: "ρ", sgr: "σ", sfgr: "ς", tgr: "τ",
  ugr: "υ", phgr: "φ", khgr: "χ", psgr: "ψ", ohgr: "ω", idigr: "ϊ", udigr: "ϋ",
  Agr: "Α", Bgr: "Β", Ggr: "Γ", Dgr: "Δ", Egr: "Ε", Zgr: "Ζ", EEgr: "Η", THgr: "Θ", Igr: "Ι", Kgr: "Κ",
  Lgr: "Λ", Mgr: "Μ", Ngr: "Ν", Xgr: "Ξ", Ogr: "Ο", Pgr: "Π", Rgr: "Ρ", Sgr: "Σ", Tgr: "Τ", Ugr: "Υ",
  PHgr: "Φ", KHgr: "Χ", PSgr: "Ψ", OHgr: "Ω"
}

const cache = new Map<string, string>()

/** Text for a named entity (without `&` and `;`); empty string when unknown. */
export const resolveEntity = (name: string): string => {
  const hit = cache.get(name)
  if (hit !== undefined) return hit
  let value = ISO_GREEK[name]
  if (value === undefined) {
    const decoded = /^[A-Za-z][A-Za-z0-9]*$/.test(name) ? parse(`&${name};`).text : ""
    value = decoded.startsWith("&") ? "" : decoded
  }
  cache.set(name, value)
  return value
}
