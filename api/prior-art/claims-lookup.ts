/**
 * Claims lookup (SPEC 2.4, 4.1): one entry per found application, in the order requested
 * (a repeated number is answered once); numbers with no application row go to not_found.
 * An application that exists but has no claims on file is found, with an empty claim list.
 */
export interface ClaimRow {
  readonly app_num: string
  readonly claim_num: number
  readonly text: string | null
  readonly depends_on: ReadonlyArray<number> | null
  readonly is_independent: boolean | null
}

export interface ApplicationRow {
  readonly app_num: string
  readonly title: string | null
  readonly abstract: string | null
}

export interface ParsedClaim {
  readonly number: number
  readonly text: string
  readonly is_independent: boolean
  readonly depends_on: ReadonlyArray<number>
}

/** The claim set as published: "1. …" paragraphs in order (the source blob is not kept verbatim). */
export const rawClaims = (claims: ReadonlyArray<ParsedClaim>) => claims.map((c) => `${c.number}. ${c.text}`).join("\n\n")

export const toParsedClaims = (rows: ReadonlyArray<ClaimRow>): ParsedClaim[] =>
  [...rows]
    .sort((a, b) => Number(a.claim_num) - Number(b.claim_num))
    .map((r) => ({
      number: Number(r.claim_num),
      text: r.text ?? "",
      is_independent: r.is_independent ?? (r.depends_on ?? []).length === 0,
      depends_on: [...(r.depends_on ?? [])].map(Number)
    }))

export const assembleClaimsLookup = (
  requested: ReadonlyArray<string>,
  applications: ReadonlyArray<ApplicationRow>,
  claims: ReadonlyArray<ClaimRow>,
  options: { readonly format: "parsed" | "raw"; readonly independentOnly: boolean }
) => {
  const apps = new Map(applications.map((a) => [a.app_num, a]))
  const claimsOf = new Map<string, ClaimRow[]>()
  for (const c of claims) (claimsOf.get(c.app_num) ?? claimsOf.set(c.app_num, []).get(c.app_num)!).push(c)
  const order = [...new Set(requested)]
  const notFound: string[] = []
  let withheld = 0
  const specifications = order.flatMap((appNum) => {
    const app = apps.get(appNum)
    if (!app) {
      notFound.push(appNum)
      return []
    }
    const all = toParsedClaims(claimsOf.get(appNum) ?? [])
    const kept = options.independentOnly ? all.filter((c) => c.is_independent) : all
    withheld += all.length - kept.length
    return [
      {
        application_number: appNum,
        title: app.title,
        title_source: "application",
        abstract: app.abstract,
        claims: kept,
        claim_count: all.length,
        independent_claim_count: all.filter((c) => c.is_independent).length,
        ...(options.format === "raw" ? { claims_raw: rawClaims(all) } : {})
      }
    ]
  })
  return { specifications, notFound, withheld, requested: order.length }
}
