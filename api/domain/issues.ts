/**
 * Turns a Schema parse error into the one sentence a 400 carries: `field: rule`, e.g.
 * `count: must be an integer between 1 and 100` or `claims[3].text: must be a string of at least
 * 10 characters`. The most specific rule wins (deepest path, custom rule text over Schema's
 * generic "Expected …" wording).
 */
import { ParseResult } from "effect"

interface Issue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

export const fieldPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((acc, k) => (typeof k === "number" ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), "")

const generic = (message: string): string => {
  if (message.startsWith("Expected {")) return "must be an object"
  if (message.startsWith("Expected ReadonlyArray") || message.startsWith("Expected readonly")) return "must be an array"
  if (message.startsWith("Expected string")) return "must be a string"
  if (message.startsWith("Expected number") || message.startsWith("Expected a finite number")) return "must be a number"
  if (message.startsWith("Expected boolean")) return "must be true or false"
  return message
}

const isGeneric = (i: Issue) => i.message.startsWith("Expected ") || i._tag === "Unexpected"

export const describeIssues = (issues: ReadonlyArray<Issue>, subject = "body"): string => {
  if (issues.length === 0) return `${subject}: is invalid`
  const missing = issues.find((i) => i._tag === "Missing")
  const specific = issues
    .filter((i) => !isGeneric(i) && i._tag !== "Missing")
    .sort((a, b) => b.path.length - a.path.length)[0]
  const chosen = specific ?? missing ?? issues[0]
  const where = fieldPath(chosen.path)
  const what = chosen._tag === "Missing" ? "is required" : generic(chosen.message)
  // Whole-object rules already name their fields ("claims or abstract: …").
  if (!where) return chosen.path.length === 0 && /^[\w\s,.[\]]+:/.test(what) ? what : `${subject}: ${what === "must be an object" ? "must be a JSON object" : what}`
  return `${where}: ${what}`
}

export const describeParseError = (error: ParseResult.ParseError, subject = "body"): string =>
  describeIssues(ParseResult.ArrayFormatter.formatErrorSync(error), subject)
