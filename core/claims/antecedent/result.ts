/** The answer for a claim set: findings at or above the floor, per-claim reports, dependency chains and counts. */
import type { ParsedClaim } from "../parse.ts"
import type { ClaimState } from "./claim-scan.ts"
import { SEVERITY_RANK } from "./severity.ts"
import type { AntecedentIssue, AntecedentOptions, AntecedentResult, ClaimReport, DependencyInfo, SuppressedCandidate } from "./types.ts"

export const assembleResult = (
  parsed: ReadonlyArray<ParsedClaim>,
  byNumber: ReadonlyMap<number, ParsedClaim>,
  states: ReadonlyMap<number, ClaimState>,
  options: AntecedentOptions
): AntecedentResult => {
  const floor = SEVERITY_RANK[options.minSeverity ?? "low"]
  const reports: ClaimReport[] = []
  const dependencies: DependencyInfo[] = []
  const all: AntecedentIssue[] = []
  const suppressedAll: SuppressedCandidate[] = []
  for (const p of parsed) {
    const st = states.get(p.number)
    // A number given twice: only its first claim was analysed.
    const own = st && st.parsed === p ? st.issues.filter((i) => SEVERITY_RANK[i.severity] >= floor) : []
    reports.push({ number: p.number, isIndependent: p.isIndependent, dependsOn: p.dependsOn, introducedTerms: st && st.parsed === p ? st.introducedTerms : [], issues: own })
    dependencies.push({
      claimNumber: p.number,
      dependsOn: p.dependsOn,
      chain: st ? st.ancestors.map((a) => a.parsed.number).sort((a, b) => a - b) : [],
      valid: p.dependsOn.every((n) => n < p.number && byNumber.get(n)?.canceled === false)
    })
    all.push(...own)
    if (st && st.parsed === p) suppressedAll.push(...st.suppressed)
  }
  const bySeverity = { high: 0, medium: 0, low: 0 }
  let informational = 0
  const byType: Record<string, number> = {}
  for (const i of all) {
    bySeverity[i.severity]++
    if (i.informational) informational++
    byType[i.type] = (byType[i.type] ?? 0) + 1
  }
  return {
    available: true,
    issues: all,
    claims: reports,
    dependencies,
    stats: {
      claimCount: parsed.length,
      independentCount: parsed.filter((p) => p.isIndependent).length,
      issueCount: all.length,
      claimsWithIssues: reports.filter((c) => c.issues.length > 0).length,
      bySeverity,
      informational,
      byType
    },
    ...(options.includeSuppressed ? { suppressed: suppressedAll } : {})
  }
}
