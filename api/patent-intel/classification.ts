/**
 * Classification of a publication or application number (SPEC 2.9): the number is tried as a
 * publication number first, then as an application number. Inventive symbols cover what is
 * claimed, additional ones disclosed but unclaimed matter.
 */
import { Effect, Option } from "effect"
import { type CpcRecordRow, type PublicationRecordRow, RECORDS } from "../../core/serving/names.ts"
import type { CorpusUnavailable } from "../domain/errors.ts"
import type { CpcIndex } from "./cpc-index.ts"
import { NotFound } from "../domain/errors.ts"
import { type Json, recordOr, type RecordLookup, str, type Query } from "./stored.ts"

interface Located {
  readonly matched_as: "publication_number" | "application_number"
  readonly publication_number: string | null
  readonly application_number: string
  readonly kind_code: string | null
  /** The application row, when locating it already read it. */
  readonly application?: Json
}

/** Patent numbers are stored without leading zeros ("07123456" is patent 7123456). */
const withoutLeadingZeros = (n: string) => n.replace(/^0+(?=\d)/, "")

/** The publication row (exact form first, then without leading zeros; lowest application number). */
const publicationOf = (query: Query, records: RecordLookup, number: string) => {
  const forms = [...new Set([number, withoutLeadingZeros(number)])]
  return Option.match(
    Option.all(forms.map((f) => records<ReadonlyArray<PublicationRecordRow>>(RECORDS.publications, f))),
    {
      onSome: (reads) =>
        Effect.map(Effect.all(reads, { concurrency: "unbounded" }), (found) => {
          for (const [i, rows] of found.entries()) if (rows?.length) return { pub_num: forms[i], app_num: rows[0].app_num, kind: rows[0].kind }
          return undefined
        }),
      onNone: () =>
        Effect.map(
          query(
            `SELECT pub_num, app_num, kind FROM publications WHERE pub_num IN ($1, $2) AND app_num IS NOT NULL
             ORDER BY pub_num = $1 DESC, app_num LIMIT 1`,
            [number, withoutLeadingZeros(number)],
            ["publications"]
          ),
          (rows) => rows[0] as { pub_num: unknown; app_num: unknown; kind: unknown } | undefined
        )
    }
  )
}

const applicationOf = (query: Query, records: RecordLookup, appNum: string) =>
  recordOr<Json>(records(RECORDS.applications, appNum), () =>
    query(`SELECT app_num, title, kind, pub_num FROM applications WHERE app_num = $1 LIMIT 1`, [appNum], ["applications"])
  )

const locate = (query: Query, records: RecordLookup, number: string) =>
  Effect.gen(function* () {
    const pub = yield* publicationOf(query, records, number)
    if (pub)
      return {
        matched_as: "publication_number",
        publication_number: String(pub.pub_num),
        application_number: String(pub.app_num),
        kind_code: str(pub.kind)
      } satisfies Located as Located
    const app = yield* applicationOf(query, records, number)
    if (app)
      return {
        matched_as: "application_number",
        publication_number: str(app.pub_num),
        application_number: number,
        kind_code: str(app.kind),
        application: app
      } satisfies Located as Located
    return yield* Effect.fail(new NotFound({ message: `${number} is neither a publication number nor an application number in the corpus` }))
  })

/** Symbols of an application in served order (main, inventive, then by symbol) with their scheme titles. */
const symbolsOf = (query: Query, records: RecordLookup, cpcIndex: Effect.Effect<CpcIndex, CorpusUnavailable>, appNum: string) =>
  Option.match(records<ReadonlyArray<CpcRecordRow>>(RECORDS.cpc, appNum), {
    onSome: (read) =>
      Effect.gen(function* () {
        const [rows, index] = yield* Effect.all([read, cpcIndex], { concurrency: "unbounded" })
        return (rows ?? []).map((r) => ({ ...r, title: index.scheme.get(r.symbol)?.title ?? null }))
      }),
    onNone: () =>
      query(
        `SELECT c.symbol, bool_or(c.is_inventive) AS inventive, bool_or(c.is_main) AS main, any_value(s.title) AS title
         FROM cpc_assignments c LEFT JOIN cpc_scheme s ON s.symbol = c.symbol
         WHERE c.app_num = $1 AND c.symbol IS NOT NULL GROUP BY c.symbol
         ORDER BY main DESC, inventive DESC, c.symbol`,
        [appNum],
        ["cpc_assignments", "cpc_scheme"]
      )
  })

export const getPatentClassification = (query: Query, records: RecordLookup, cpcIndex: Effect.Effect<CpcIndex, CorpusUnavailable>, number: string) =>
  Effect.gen(function* () {
    const found = yield* locate(query, records, number.trim())
    const [symbols, app] = yield* Effect.all(
      [
        symbolsOf(query, records, cpcIndex, found.application_number),
        found.application ? Effect.succeed(found.application) : applicationOf(query, records, found.application_number)
      ],
      { concurrency: "unbounded" }
    )
    // Some sources flag two main symbols; the first inventive one (then alphabetical) is served.
    const main = symbols.find((s) => s.main === true) ?? null
    return {
      publication_number: found.publication_number,
      application_number: found.application_number,
      // The application's kind code describes its own publication only (a B2, not the earlier A1).
      kind_code: found.kind_code ?? (app && str(app.pub_num) === found.publication_number ? str(app.kind) : null),
      main_cpc: main ? String(main.symbol) : null,
      main_cpc_title: main ? str(main.title) : null,
      inventive_cpcs: symbols.filter((s) => s.inventive === true).map((s) => String(s.symbol)),
      additional_cpcs: symbols.filter((s) => s.inventive !== true).map((s) => String(s.symbol)),
      matched_as: found.matched_as,
      title: str(app?.title),
      cpc_titles: Object.fromEntries(symbols.map((s) => [String(s.symbol), str(s.title)]))
    }
  })
