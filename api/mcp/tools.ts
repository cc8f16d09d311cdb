/**
 * The MCP tool registry, derived from the REST declaration: each tool is the route(s) annotated
 * with its name, its input schema is the union of the route's path, query and body schemas, and
 * calling it runs the REST route itself through RestDispatch (same authentication, permission,
 * quota, validation, handler and service). There is no second implementation to drift.
 */
import { JSONSchema, Option, Schema, SchemaAST } from "effect"
import { type RouteEntry, routeTable } from "../http/route-table.ts"
import type { InternalCall } from "../dispatch/RestDispatch.ts"

type Json = Record<string, any>

export interface ToolEntry {
  readonly name: string
  readonly description: string
  readonly inputSchema: Json
  /** Picks the REST call for a set of arguments. */
  readonly toCall: (args: Record<string, unknown>) => InternalCall
}

const fieldNames = (ast: SchemaAST.AST): ReadonlyArray<string> => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.map((p) => String(p.name))
    case "Refinement":
      return fieldNames(ast.from)
    case "Transformation":
      return fieldNames(ast.to)
    default:
      return []
  }
}

const fieldsOf = (schema: Option.Option<Schema.Schema.Any>) => Option.match(schema, { onNone: () => [], onSome: (s) => fieldNames(s.ast) })

/** A schema with an identifier comes back as a top-level $ref into $defs: inline it. */
const inlineTop = (js: Json): Json => {
  if (!js.$ref) return js
  const name = String(js.$ref).split("/").pop()!
  const { [name]: inlined, ...$defs } = js.$defs ?? {}
  return { ...inlined, $defs }
}

const jsonSchemaOf = (schema: Schema.Schema.Any, side: "type" | "encoded"): Json =>
  inlineTop(
    JSONSchema.make(
      (side === "type" ? Schema.typeSchema(schema as Schema.Schema<any, any, never>) : Schema.encodedSchema(schema as Schema.Schema<any, any, never>)) as Schema.Schema<any>
    ) as Json
  )

/** Effect's generated titles ("between(1, 100)", "maxLength(80)", "int") say nothing an agent needs. */
const generatedTitle = (title: unknown) => typeof title === "string" && /^(int|[a-zA-Z]+\(.*\))$/.test(title)

/**
 * One self-contained JSON value: `$ref`s into `$defs` inlined (several MCP hosts drop a tool whose
 * schema holds references) and generated titles removed.
 */
const inlined = (node: unknown, $defs: Json): any => {
  if (Array.isArray(node)) return node.map((n) => inlined(n, $defs))
  if (node === null || typeof node !== "object") return node
  const { $ref, ...rest } = node as Json
  const base = typeof $ref === "string" ? inlined($defs[$ref.split("/").pop()!] ?? {}, $defs) : {}
  const out: Json = { ...base }
  for (const [k, v] of Object.entries(rest)) if (!(k === "title" && generatedTitle(v))) out[k] = inlined(v, $defs)
  if (typeof $ref === "string" && rest.description === undefined) delete out.description
  return out
}

/** The "at least one of" alternatives a whole-object rule declares (api/domain/rules.ts `atLeastOneOf`). */
const alternativesOf = (js: Json): ReadonlyArray<ReadonlyArray<string>> =>
  (js.allOf ?? []).flatMap((a: Json) =>
    Array.isArray(a.anyOf) && a.anyOf.every((b: Json) => Array.isArray(b.required)) ? [a.anyOf.flatMap((b: Json) => b.required)] : []
  )

interface Alternatives {
  readonly names: ReadonlyArray<string>
  readonly route: RouteEntry
}

interface MergedInput {
  readonly inputSchema: Json
  readonly alternatives: ReadonlyArray<Alternatives>
}

/**
 * Tool arguments are JSON values, so fields are described by their decoded side (query integers
 * and switches as numbers and booleans, with every rule); a field is required only when the wire
 * requires it (fields with defaults are optional). A query switch's description sits on its
 * string side, so that side supplies it. Where two routes serve a tool, the first route's field
 * wins.
 *
 * "At least one of claims or abstract" stays out of the schema's root: Anthropic's and OpenAI's
 * tool APIs refuse an input schema with anyOf/oneOf/allOf at its top level, and MCP hosts built on
 * them (Claude Code, Claude Desktop, opencode) then drop the tool or the whole session. It is said
 * in each alternative field's description and in the tool description instead, and the server
 * still refuses a call that supplies neither (400 naming both fields).
 */
const mergeInputSchemas = (routes: ReadonlyArray<RouteEntry>): MergedInput => {
  const properties: Json = {}
  const requiredSets: Array<Set<string>> = []
  const alternatives: Array<Alternatives> = []
  for (const route of routes) {
    const required = new Set<string>()
    for (const part of [route.pathSchema, route.urlParamsSchema, route.payloadSchema]) {
      if (Option.isNone(part)) continue
      const decoded = jsonSchemaOf(part.value, "type")
      const encoded = jsonSchemaOf(part.value, "encoded")
      const wire = inlineTop(JSONSchema.make(part.value as Schema.Schema<any>) as Json)
      for (const [name, property] of Object.entries<Json>(decoded.properties ?? {})) {
        if (name in properties) continue
        const described = inlined(property, decoded.$defs ?? {})
        described.description ??= wire.properties?.[name]?.description
        properties[name] = described
      }
      for (const r of encoded.required ?? []) required.add(r)
      alternatives.push(...alternativesOf(decoded).map((names) => ({ names, route })))
    }
    requiredSets.push(required)
  }
  const required = [...(requiredSets[0] ?? [])].filter((r) => requiredSets.every((s) => s.has(r)))
  return { inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) }, alternatives }
}

const buildCall = (route: RouteEntry, args: Record<string, unknown>): InternalCall => {
  const pathFields = new Set(fieldsOf(route.pathSchema))
  const queryFields = new Set(fieldsOf(route.urlParamsSchema))
  const path = route.template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(args[name] ?? "")))
  const query: Record<string, string> = {}
  const body: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || pathFields.has(k)) continue
    if (queryFields.has(k)) query[k] = typeof v === "string" ? v : JSON.stringify(v)
    else body[k] = v
  }
  return {
    method: route.method as "GET" | "POST",
    path,
    query,
    ...(Option.isSome(route.payloadSchema) ? { body } : {})
  }
}

/** Tools served by two routes (a supplied claim set, or the filed one) take the body route when claims are given. */
const chooseRoute = (routes: ReadonlyArray<RouteEntry>, args: Record<string, unknown>) =>
  routes.length === 1 ? routes[0] : (routes.find((r) => (args.claims !== undefined ? r.method === "POST" : r.method === "GET")) ?? routes[0])

const describe = (name: string, routes: ReadonlyArray<RouteEntry>, alternatives: ReadonlyArray<Alternatives>) => {
  const lines = routes.map((r) => `${r.summary ?? name} (${r.method} ${r.template}; ${r.access.metered ? "metered" : "free"})`)
  const choice = routes.length > 1 ? " Give `claims` to check a supplied claim set, or `appNum` alone to use the filed one." : ""
  const oneOf = alternatives
    .map(({ names, route }) => {
      const when = routes.length > 1 ? ` (with \`claims\`, ${route.method} ${route.template})` : ""
      return ` Requires at least one of ${names.map((n) => `\`${n}\``).join(" or ")}${when}.`
    })
    .join("")
  return `${lines.join("; ")}.${choice}${oneOf}`
}

export const toolRegistry: ReadonlyArray<ToolEntry> = (() => {
  const byTool = new Map<string, Array<RouteEntry>>()
  for (const route of routeTable) {
    if (route.access.tool) byTool.set(route.access.tool, [...(byTool.get(route.access.tool) ?? []), route])
  }
  return [...byTool.entries()].map(([name, routes]) => {
    const { alternatives, inputSchema } = mergeInputSchemas(routes)
    return {
      name,
      description: describe(name, routes, alternatives),
      inputSchema,
      toCall: (args) => buildCall(chooseRoute(routes, args), args)
    }
  })
})()
