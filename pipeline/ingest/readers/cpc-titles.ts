/**
 * The official CPC Title List (one file per section, e.g. cpc-section-H_20250501.txt):
 * tab-separated `symbol, level, title` with CRLF line ends. The level is blank for sections,
 * classes and subclasses, 0 for main groups and the dot depth n for subgroups.
 *
 * Parents come from the list's order: a subgroup at dot depth n hangs under the nearest
 * preceding entry of depth n-1 in the same main group (the scheme is printed depth-first),
 * a main group under its subclass, a subclass under its class, a class under its section.
 * The tree printed under a main group also holds 2000-series indexing codes (A01C2001/048
 * under A01C1/04), so membership is by position in the list, not by the group number.
 */
import { createInterface } from "node:readline"
import { Readable } from "node:stream"
import { type CorpusReader, row, skip } from "../../../core/corpus/reader.ts"
import { normalizeCpcSymbol } from "../../../core/guidance/ids.ts"

/** Hierarchy level: 1 section, 2 class, 3 subclass, 4 main group, 4 + n subgroup at dot depth n. */
const levelOf = (symbol: string, depth: string): number | undefined => {
  if (depth === "") return symbol.length === 1 ? 1 : symbol.length === 3 ? 2 : symbol.length === 4 ? 3 : undefined
  if (!/^\d{1,2}$/.test(depth) || !symbol.includes("/")) return undefined
  return 4 + Number(depth)
}

export const cpcTitleReader: CorpusReader = async function* (file) {
  // ancestors[d] = last symbol seen at dot depth d (0 = main group) in the current main group.
  let ancestors: string[] = []
  let lineNo = 0
  const lines = createInterface({ input: Readable.from(file.open()), crlfDelay: Infinity })
  for await (const raw of lines) {
    lineNo++
    const line = raw.replace(/^\uFEFF/, "")
    if (line.trim() === "") continue
    const at = `line ${lineNo}`
    const fields = line.split("\t")
    if (fields.length !== 3) {
      yield skip(file.path, at, `expected 3 tab-separated fields, found ${fields.length}`)
      continue
    }
    const symbol = normalizeCpcSymbol(fields[0])
    const depth = fields[1].trim()
    const title = fields[2].trim()
    if (!symbol) {
      yield skip(file.path, at, `not a CPC symbol: ${fields[0].slice(0, 40)}`)
      continue
    }
    const level = levelOf(symbol, depth)
    if (level === undefined) {
      yield skip(file.path, at, `level "${depth.slice(0, 10)}" does not fit symbol ${symbol}`)
      continue
    }
    if (title === "") {
      yield skip(file.path, at, `no title for ${symbol}`)
      continue
    }
    let parent: string | null
    if (level === 1) parent = null
    else if (level === 2) parent = symbol.slice(0, 1)
    else if (level === 3) parent = symbol.slice(0, 3)
    else if (level === 4) {
      parent = symbol.slice(0, 4)
      ancestors = [symbol]
    } else {
      const n = level - 4
      if (ancestors.length === 0 || ancestors[0].slice(0, 4) !== symbol.slice(0, 4)) {
        yield skip(file.path, at, `subgroup ${symbol} does not follow a main group of its subclass`)
        continue
      }
      // A depth jump (n > known depth + 1) would be a list error; hang it under the deepest known ancestor.
      parent = ancestors[Math.min(n - 1, ancestors.length - 1)]
      ancestors = ancestors.slice(0, n)
      while (ancestors.length < n) ancestors.push(parent)
      ancestors.push(symbol)
    }
    yield row("cpc_scheme", { symbol, level, title, parent, section: symbol.slice(0, 1) })
  }
}
