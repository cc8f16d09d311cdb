/**
 * Field rules shared by the request schemas. Every rule carries one sentence ("must be an integer
 * between 1 and 100") that is both the validation message and the OpenAPI description, so the
 * documentation and the 400 answers can never disagree.
 */
import { Option, Schema, SchemaAST } from "effect"

/** Replaces whatever nested message Schema would produce with the rule's own sentence. */
export const rule = <S extends Schema.Schema.Any>(schema: S, text: string): S =>
  schema.annotations({ description: text, message: () => ({ message: text, override: true }) }) as S

/**
 * A request field: what it does (the spec's words), then the rule it must follow. The one text is
 * the field's description in the OpenAPI document, on the /docs page and in the MCP tool schema,
 * so an agent learns what `hyde` or `cpc3` does, not only how it is validated. The rule's own
 * 400 message is unchanged.
 */
export const field = <S extends Schema.Schema.Any>(schema: S, purpose: string): S => {
  const ruleText = Option.getOrUndefined(SchemaAST.getDescriptionAnnotation(schema.ast))
  return schema.annotations({ description: ruleText ? `${purpose} Rule: ${ruleText}.` : purpose }) as S
}

/**
 * "At least one of these fields": the JSON Schema form (`anyOf` of `required` alternatives) that a
 * whole-object rule carries into the OpenAPI document; the MCP tool list turns it into words (see
 * api/mcp/tools.ts for why).
 */
export const atLeastOneOf = (...names: ReadonlyArray<string>) => ({
  // Wrapped in allOf: a bare anyOf in a jsonSchema annotation would replace the whole object schema.
  allOf: [{ anyOf: names.map((n) => ({ required: [n] })) }]
})

/** Integer in a JSON body. */
export const BodyInt = (min: number, max: number) =>
  rule(Schema.Int.pipe(Schema.between(min, max)), `must be an integer between ${min} and ${max}`)

/** Integer sent as a query or path string: digits only, no exponent or spaces. */
export const QueryInt = (min: number, max: number) =>
  rule(
    Schema.compose(Schema.String.pipe(Schema.pattern(/^[+-]?\d{1,10}$/)), Schema.NumberFromString).pipe(
      Schema.int(),
      Schema.between(min, max)
    ),
    `must be an integer between ${min} and ${max}`
  )

/** Decimal number sent as a query string. */
export const QueryNumber = (min: number, max: number) =>
  rule(
    Schema.compose(Schema.String.pipe(Schema.pattern(/^[+-]?(\d{1,10}(\.\d{0,12})?|\.\d{1,12})$/)), Schema.NumberFromString).pipe(
      Schema.between(min, max)
    ),
    `must be a number between ${min} and ${max}`
  )

export const BodyBool = rule(Schema.Boolean, "must be true or false")

/** Query switches: `1`/`true` and `0`/`false`. */
export const QueryBool = rule(
  Schema.transform(Schema.Literal("1", "0", "true", "false"), Schema.Boolean, {
    strict: true,
    decode: (s) => s === "1" || s === "true",
    encode: (b) => (b ? "1" : "0")
  }),
  "must be 1 or 0 (true or false)"
)

export const Text = (min: number, max: number) =>
  rule(
    Schema.String.pipe(Schema.minLength(min), Schema.maxLength(max)),
    min === 0 ? `must be a string of at most ${max} characters` : `must be a string of ${min}-${max} characters`
  )

export const Matching = (pattern: RegExp, text: string) => rule(Schema.String.pipe(Schema.pattern(pattern)), text)

export const OneOf = <const L extends ReadonlyArray<string>>(...values: L) =>
  rule(Schema.Literal(...values), `must be one of ${values.join(", ")}`)

export const CpcSection = OneOf("A", "B", "C", "D", "E", "F", "G", "H", "Y")

export const Severity = OneOf("high", "medium", "low")

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, and a real calendar date: malformed bounds are refused. */
export const DateBound = rule(
  Schema.String.pipe(
    Schema.filter(
      (s) => {
        if (!/^\d{4}(-\d{2}(-\d{2})?)?$/.test(s)) return false
        const [y, m = 1, d = 1] = s.split("-").map(Number)
        const date = new Date(Date.UTC(y, m - 1, d))
        return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
      },
      { jsonSchema: { pattern: "^\\d{4}(-\\d{2}(-\\d{2})?)?$" } }
    )
  ),
  "must be a date written YYYY, YYYY-MM or YYYY-MM-DD"
)

/** Array with a length rule; item failures keep their own (more specific) messages. */
export const ListOf = <S extends Schema.Schema.Any>(item: S, min: number, max: number, what: string) => {
  const text = min === 0 ? `must hold at most ${max} ${what}` : `must hold ${min}-${max} ${what}`
  return Schema.Array(item).annotations({ message: () => `must be an array of ${what}` }).pipe(
    Schema.filter((a) => a.length >= min && a.length <= max, {
      message: () => text,
      description: text,
      jsonSchema: { minItems: min, maxItems: max }
    })
  )
}
