/** Reads of the served artifact version for the support mapper: filed claims, specification, continuity. */
import { Effect, Option } from "effect"
import { type ClaimRecordRow, type ParagraphRecordRow, type ParentRecordRow, RECORDS } from "../../core/serving/names.ts"
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

/**
 * Records of both number forms from a serving record file, in key order; None when the version
 * predates the serving stage (the callers below then use SQL).
 */
const recordsOf = <R>(store: ArtifactStore, name: string, appNums: ReadonlyArray<string>) =>
  Option.map(store.records<R>(name), (file) =>
    Effect.map(store.readRecords(file, appNums.flatMap((a) => appNumForms(a))), (found) => [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  )

export const filedClaims = (store: ArtifactStore, appNum: string) =>
  Option.getOrElse(
    Option.map(recordsOf<ReadonlyArray<ClaimRecordRow>>(store, RECORDS.claims, [appNum]), (read) =>
      Effect.map(read, (found) =>
        found
          .flatMap(([, claims]) => claims.filter((c) => c.text !== null))
          .sort((a, b) => a.claim_num - b.claim_num)
          .map((c) => ({ number: Number(c.claim_num), text: String(c.text) }))
      )
    ),
    () =>
      Effect.map(
        store.query("SELECT claim_num, text FROM claims WHERE app_num IN ($1, $2) AND text IS NOT NULL ORDER BY claim_num", appNumForms(appNum), ["claims"]),
        (rows) => rows.map((r) => ({ number: Number(r.claim_num), text: String(r.text) }))
      )
  )

const toParagraph = (r: Record<string, unknown>): WarehouseParagraph => ({
  seq: Number(r.seq),
  para_num: r.para_num as string | null,
  heading: r.heading as string | null,
  text: r.text as string | null
})

export const filedSpecification = (store: ArtifactStore, appNum: string): Effect.Effect<SpecParagraph[], CorpusUnavailable> =>
  Option.getOrElse(
    Option.map(recordsOf<ReadonlyArray<ParagraphRecordRow>>(store, RECORDS.paragraphs, [appNum]), (read) =>
      Effect.map(read, (found) =>
        paragraphsOfRows(
          found
            .flatMap(([, rows]) => rows)
            .sort((a, b) => a.seq - b.seq)
            .map((r) => toParagraph(r as unknown as Record<string, unknown>))
        )
      )
    ),
    () =>
      Effect.map(
        store.query(
          "SELECT seq, para_num, heading, text FROM description_paragraphs WHERE app_num IN ($1, $2) ORDER BY seq",
          appNumForms(appNum),
          ["description_paragraphs"]
        ),
        (rows) => paragraphsOfRows(rows.map(toParagraph))
      )
  )

export const parentsOf = (store: ArtifactStore, appNums: ReadonlyArray<string>): Effect.Effect<ParentLink[], CorpusUnavailable> =>
  appNums.length === 0
    ? Effect.succeed([] as ParentLink[])
    : Option.getOrElse(
        Option.map(recordsOf<ReadonlyArray<ParentRecordRow>>(store, RECORDS.parents, appNums), (read) =>
          Effect.map(read, (found) =>
            found.flatMap(([child, parents]) =>
              parents.map((r): ParentLink => ({ child, parent: r.parent_app, relation: r.relation ?? "OTHER", filingDate: r.parent_filed ?? null }))
            )
          )
        ),
        () =>
          Effect.map(
            store.query(
              `SELECT DISTINCT child_app, parent_app, relation, parent_filing_date, strftime(parent_filing_date, '%Y-%m-%d') AS parent_filed FROM continuity
               WHERE child_app IN (${placeholders(appNums.length * 2)}) AND parent_app IS NOT NULL AND parent_app <> child_app
               ORDER BY child_app, parent_filing_date NULLS LAST, parent_app`,
              appNums.flatMap((a) => appNumForms(a)),
              ["continuity"]
            ),
            (rows) => rows.map((r): ParentLink => ({ child: String(r.child_app), parent: String(r.parent_app), relation: String(r.relation ?? "OTHER"), filingDate: (r.parent_filed as string | null) ?? null }))
          )
      )

/** Which of these applications have a record in the corpus at all. */
export const knownApplications = (store: ArtifactStore, appNums: ReadonlyArray<string>): Effect.Effect<Set<string>, CorpusUnavailable> =>
  appNums.length === 0
    ? Effect.succeed(new Set<string>())
    : Option.match(store.records(RECORDS.applications), {
        onSome: (file) => Effect.sync(() => new Set(appNums.filter((a) => file.has(a)))),
        onNone: () =>
          Effect.map(
            store.query(`SELECT DISTINCT app_num FROM applications WHERE app_num IN (${placeholders(appNums.length)})`, appNums, ["applications"]),
            (rows) => new Set(rows.map((r) => String(r.app_num)))
          )
      })
