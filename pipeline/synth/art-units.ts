/**
 * Which art units examine which CPC areas. There is no official concordance (see the sample
 * corpus README), so this follows the Technology Centers' public remits: TC 1600 biotech and
 * organic chemistry, 1700 chemical and materials engineering, 2100 computers, 2400 networks,
 * 2600 communications, 2800 semiconductors and electrical systems, 3600 transportation and
 * e-commerce, 3700 mechanical engineering and medical devices. Values are work groups (the first
 * three digits); an art unit adds a final digit 1–9.
 */
import { hash2, hashString } from "./random.ts"

// Longest matching CPC prefix wins.
const WORK_GROUPS: ReadonlyArray<readonly [string, readonly number[]]> = [
  ["A61K", [161, 162, 165]], ["A61P", [161, 162, 162]], ["A61B", [373, 379, 379]], ["A61F", [377, 378]],
  ["A61M", [378, 377]], ["A61N", [379, 379]], ["A61", [373, 377, 378]], ["A01N", [161, 171]],
  ["A01", [364, 366, 367]], ["A23", [179, 165]], ["A47", [363, 363]], ["A63", [371, 371]], ["A", [373, 363, 375]],
  ["B01", [177, 176]], ["B05", [171, 171]], ["B08", [171]], ["B23", [372, 373]], ["B29", [174, 174]], ["B32", [178, 178]],
  ["B60", [361, 366, 366]], ["B62", [361, 361]], ["B64", [364]], ["B65", [365, 373]], ["B", [365, 372, 375]],
  ["C07", [162, 169, 162]], ["C08", [176, 176]], ["C12", [163, 165]], ["C01", [173, 173]], ["C09", [173, 176]],
  ["C", [173, 175, 179]], ["D", [178, 376]], ["E", [363, 367, 367]], ["F", [374, 375, 376, 365]],
  ["G01", [285, 286, 286]], ["G02", [287, 287]], ["G03", [285, 287]], ["G05", [211, 366]], ["G06F", [212, 213, 215, 216, 217, 219]],
  ["G06N", [212, 212]], ["G06Q", [362, 368, 369]], ["G06T", [261, 266]], ["G06V", [266, 266]], ["G08", [268, 268]],
  ["G09", [262, 262]], ["G10", [265, 265]], ["G11", [213, 268]], ["G16", [368, 368]], ["G", [285, 286, 215]],
  ["H01L", [281, 289, 289]], ["H01M", [172, 172]], ["H01", [283, 284, 281]], ["H02", [283, 283, 284]], ["H03", [284, 263]],
  ["H04L", [241, 244, 246, 247]], ["H04W", [246, 247, 264]], ["H04N", [242, 248, 248]], ["H04B", [263, 264]],
  ["H04", [264, 265]], ["H05", [284, 289]], ["H", [284, 283]]
]

const workGroupsFor = (symbol: string): readonly number[] => {
  let best: readonly number[] = [285]
  let bestLen = 0
  for (const [prefix, groups] of WORK_GROUPS) {
    if (prefix.length > bestLen && symbol.startsWith(prefix)) {
      best = groups
      bestLen = prefix.length
    }
  }
  return best
}

/**
 * The art unit of a main group: the subclass picks its work groups, the main group one unit in
 * them, so neighbouring topics mostly share an art unit and some are split, as in practice.
 */
export const artUnitFor = (seed: number, subclassSymbol: string, mainGroupSymbol: string): number => {
  const groups = workGroupsFor(subclassSymbol)
  const hs = hash2(seed, hashString(subclassSymbol))
  const units = [1 + (hs % 9), 1 + ((hs >>> 8) % 9)]
  const hm = hash2(seed, hashString(mainGroupSymbol))
  const group = groups[(hs >>> 16) % groups.length]
  const unit = hm % 4 === 0 ? units[1] : units[0]
  return group * 10 + unit
}
