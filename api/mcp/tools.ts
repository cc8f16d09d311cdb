/**
 * The MCP tool registry, derived from the REST declaration: each tool is the route(s) annotated
 * with its name, its input schema is the union of the route's path, query and body schemas, and
 * calling it runs the REST route itself through the gateway (same authentication, permission,
 * quota, validation, handler and service). There is no second implementation to drift.
 */
import { JSONSchema, Option, Schema, SchemaAST } from "effect"
import { type RouteEntry, routeTable } from "../http/route-table.ts"
import type { InternalCall } from "../http/middleware/gateway.ts"

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

/**
 * Tool arguments are JSON values, so fields are described by their decoded side (query integers
 * and switches as numbers and booleans, with every rule); a field is required only when the wire
 * requires it (fields with defaults are optional).
 */
const mergeInputSchemas = (routes: ReadonlyArray<RouteEntry>): Json => {
  const properties: Json = {}
  const $defs: Json = {}
  const requiredSets: Array<Set<string>> = []
  for (const route of routes) {
    const required = new Set<string>()
    const parts = [
      [route.pathSchema, "type"],
      [route.urlParamsSchema, "type"],
      [route.payloadSchema, "type"]
    ] as const
    for (const [part, side] of parts) {
      if (Option.isNone(part)) continue
      const described = jsonSchemaOf(part.value, side)
      Object.assign($defs, described.$defs ?? {})
      Object.assign(properties, described.properties ?? {})
      for (const r of jsonSchemaOf(part.value, "encoded").required ?? []) required.add(r)
    }
    requiredSets.push(required)
  }
  const required = [...(requiredSets[0] ?? [])].filter((r) => requiredSets.every((s) => s.has(r)))
  return { type: "object", properties, ...(required.length ? { required } : {}), ...(Object.keys($defs).length ? { $defs } : {}) }
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

const describe = (name: string, routes: ReadonlyArray<RouteEntry>) => {
  const lines = routes.map((r) => `${r.summary ?? name} (${r.method} ${r.template}; ${r.access.metered ? "metered" : "free"})`)
  const choice = routes.length > 1 ? " Give `claims` to check a supplied claim set, or `appNum` alone to use the filed one." : ""
  return `${lines.join("; ")}.${choice}`
}

export const toolRegistry: ReadonlyArray<ToolEntry> = (() => {
  const byTool = new Map<string, Array<RouteEntry>>()
  for (const route of routeTable) {
    if (route.access.tool) byTool.set(route.access.tool, [...(byTool.get(route.access.tool) ?? []), route])
  }
  return [...byTool.entries()].map(([name, routes]) => ({
    name,
    description: describe(name, routes),
    inputSchema: mergeInputSchemas(routes),
    toCall: (args) => buildCall(chooseRoute(routes, args), args)
  }))
})()
