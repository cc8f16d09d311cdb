/**
 * Response objects. Two kinds are declared with pass-through of undeclared fields at run time,
 * so an answer never loses a field because a schema forgot it:
 *
 * - `DeclaredStruct`: every field the service returns is declared. The OpenAPI document shows it
 *   like any struct (`additionalProperties: true`, OpenAPI's default), and the tests validate the
 *   real answers with such objects closed (test/api/openapi-responses.test.ts), so a field added
 *   to an answer but not here fails a test instead of going undocumented.
 * - `OpenStruct`: the spec lists some fields and says more may follow (classification) or leaves
 *   the inner structure open (SPEC 2.11); the document says so on `additionalProperties`.
 */
import { Schema } from "effect"

/** The marker api/docs/openapi.ts turns back into `additionalProperties: true`. */
export const PASS_THROUGH = "x-pass-through"

const PassThrough = Schema.Unknown.annotations({ jsonSchema: { [PASS_THROUGH]: true } })

export const DeclaredStruct = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields, Schema.Record({ key: Schema.String, value: PassThrough }))

const FurtherFields = Schema.Unknown.annotations({ description: "Further fields may follow; the interface does not fix them" })

export const OpenStruct = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields, Schema.Record({ key: Schema.String, value: FurtherFields }))

/** A part of a response whose inner structure the spec leaves open (SPEC 2.11). */
export const Unspecified = Schema.Unknown.annotations({ description: "Inner structure not fixed by the interface" })
