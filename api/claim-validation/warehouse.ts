/** Reads of the served artifact version for the support mapper: filed claims, specification, continuity. */
import { Effect } from "effect"
import { paragraphsOfRows, type WarehouseParagraph } from "../../core/claims/support/specification.ts"
import type { SpecParagraph } from "../../core/claims/support/types.ts"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import type { CorpusUnavailable } from "../domain/errors.ts"

/** The corpus stores 8-digit application numbers ("09089931"); a 7-digit request may lack the leading zero. */
export const appNumForms = (appNum: string): [string, string] => [appNum, appNum.padStart(8, "0")]

export interface ParentLink {
  readonly child: string
  readonly parent: string
  readonly relation: string
  readonly filingDate: string | null
}

/** "$1, $2, …" for an IN list of n values. */
const placeholders = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(", ")

export const filedClaims = (store: ArtifactStore, appNum: string) =>
  Effect.map(
    store.query("SELECT claim_num, text FROM claims WHERE app_num IN ($1, $2) AND text IS NOT NULL ORDER BY claim_num", appNumForms(appNum), ["claims"]),
    (rows) => rows.map((r) => ({ number: Number(r.claim_num), text: String(r.text) }))
  )

export const filedSpecification = (store: ArtifactStore, appNum: string): Effect.Effect<SpecParagraph[], CorpusUnavailable> =>
  Effect.map(
    store.query(
      "SELECT seq, para_num, heading, text FROM description_paragraphs WHERE app_num IN ($1, $2) ORDER BY seq",
      appNumForms(appNum),
      ["description_paragraphs"]
    ),
    (rows) => paragraphsOfRows(rows.map((r) => ({ seq: Number(r.seq), para_num: r.para_num as string | null, heading: r.heading as string | null, text: r.text as string | null }) satisfies WarehouseParagraph))
  )

export const parentsOf = (store: ArtifactStore, appNums: ReadonlyArray<string>) =>
  appNums.length === 0
    ? Effect.succeed([] as ParentLink[])
    : Effect.map(
        store.query(
          `SELECT DISTINCT child_app, parent_app, relation, parent_filing_date, strftime(parent_filing_date, '%Y-%m-%d') AS parent_filed FROM continuity
           WHERE child_app IN (${placeholders(appNums.length * 2)}) AND parent_app IS NOT NULL AND parent_app <> child_app
           ORDER BY child_app, parent_filing_date NULLS LAST, parent_app`,
          appNums.flatMap((a) => appNumForms(a)),
          ["continuity"]
        ),
        (rows) => rows.map((r): ParentLink => ({ child: String(r.child_app), parent: String(r.parent_app), relation: String(r.relation ?? "OTHER"), filingDate: (r.parent_filed as string | null) ?? null }))
      )

/** Which of these applications have a record in the corpus at all. */
export const knownApplications = (store: ArtifactStore, appNums: ReadonlyArray<string>) =>
  appNums.length === 0
    ? Effect.succeed(new Set<string>())
    : Effect.map(
        store.query(`SELECT DISTINCT app_num FROM applications WHERE app_num IN (${placeholders(appNums.length)})`, appNums, ["applications"]),
        (rows) => new Set(rows.map((r) => String(r.app_num)))
      )
