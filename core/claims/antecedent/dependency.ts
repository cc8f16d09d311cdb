/** Improper dependency: a claim that depends on itself, on a later claim, or on a claim not in the set (or canceled). */
import type { ClaimScan } from "./claim-scan.ts"
import { normalise } from "./snippet.ts"
import { SEVERITY_RANK } from "./severity.ts"
import type { Severity } from "./types.ts"

export const reportImproperDependencies = (scan: ClaimScan) => {
  const { parsed, text } = scan
  for (const ref of parsed.references) {
    let worst: Severity | undefined
    for (const n of ref.numbers) {
      const target = scan.set.byNumber.get(n)
      const sev: Severity | undefined = n === parsed.number || !target || target.canceled ? "high" : n > parsed.number ? "medium" : undefined
      if (sev && (!worst || SEVERITY_RANK[sev] > SEVERITY_RANK[worst])) worst = sev
    }
    if (worst) scan.issue("improper-dependency", worst, normalise(text.slice(ref.start, ref.end)), ref.start, ref.end)
  }
}
