/** Response objects whose spec lists some fields and says more may follow: documented fields plus pass-through extras. */
import { Schema } from "effect"

export const OpenStruct = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields, Schema.Record({ key: Schema.String, value: Schema.Unknown }))

/** A part of a response whose inner structure the spec leaves open (SPEC 2.11). */
export const Unspecified = Schema.Unknown.annotations({ description: "Inner structure not fixed by the interface" })
