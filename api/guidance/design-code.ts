/**
 * GET /guidance/design-code/{code}: a Design Search Code at category (01), division (01.01) or
 * section (01.01.02) level: its descriptions, the names of its category ("major") and division
 * ("sub"), and the manual's guidelines and exclusions for it.
 */
import { Effect } from "effect"
import { NotFound } from "../domain/errors.ts"
import { list, type Query, str } from "./stored.ts"

export const getDesignCode = (query: Query, code: string) =>
  Effect.gen(function* () {
    const [r] = yield* query(`SELECT * FROM design_code_entries WHERE code = $1 LIMIT 1`, [code.trim()], ["design_code_entries"])
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
