/**
 * GET /guidance/design-code/{code}: a Design Search Code at category (01), division (01.01) or
 * section (01.01.02) level: its descriptions, the names of its category ("major") and division
 * ("sub"), and the manual's guidelines and exclusions for it.
 */
import { Effect } from "effect"
import { type CorpusUnavailable, NotFound } from "../domain/errors.ts"
import { byKey, list, type Query, type Row, str } from "./stored.ts"

/** The Design Search Code Manual's entries of the served version by code. */
export type DesignCodes = ReadonlyMap<string, Row>

export const loadDesignCodes = (query: Query): Effect.Effect<DesignCodes, CorpusUnavailable> =>
  Effect.map(query(`SELECT * FROM design_code_entries`, [], ["design_code_entries"]), (rows) => byKey(rows, (r) => r.code))

export const getDesignCode = (codes: Effect.Effect<DesignCodes, CorpusUnavailable>, code: string) =>
  Effect.gen(function* () {
    const r = (yield* codes).get(code.trim())
    if (!r) return yield* Effect.fail(new NotFound({ message: `design code ${code} is not in the Design Search Code Manual` }))
    return {
      code: String(r.code),
      descriptions: list(r.descriptions),
      major: str(r.major),
      sub: str(r.sub),
      level: str(r.level),
      majorCode: str(r.major_code),
      subCode: str(r.sub_code),
      guidelines: list(r.guidelines),
      excludes: list(r.excludes)
    }
  })
