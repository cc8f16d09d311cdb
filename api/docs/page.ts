/**
 * GET /docs: Swagger UI (from the installed swagger-ui-dist package, served by this service under
 * /docs/, no CDN) rendering /api/v1/openapi.json, with each route's sample-corpus example filled in
 * and "Try it out" sending calls with the key given under "Authorize". Without scripts the page is
 * a readable rendering of the same document: per area, each operation with its metering,
 * permission, cache policy, parameters with what they do and their rules, request body fields,
 * answer fields, the documented answers and the example as curl.
 */
import { openApiDocument } from "./openapi.ts"

type Json = Record<string, any>

const esc = (s: unknown) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

const code = (s: string) => `<code>${esc(s)}</code>`

const resolve = (schema: Json | undefined): Json | undefined => {
  if (!schema) return undefined
  if (schema.$ref) return resolve(openApiDocument.components.schemas[schema.$ref.split("/").pop()!])
  if (schema.allOf && !schema.properties) return resolve(schema.allOf[0])
  return schema
}

const typeOf = (schema: Json | undefined): string => {
  const s = resolve(schema)
  if (!s) return "any"
  if (s.anyOf) return s.anyOf.map(typeOf).join(" | ")
  if (s.enum) return s.enum.map((v: unknown) => JSON.stringify(v)).join(" | ")
  if (s.const !== undefined) return JSON.stringify(s.const)
  if (s.type === "array") return `${typeOf(s.items)}[]`
  return s.type ?? "object"
}

const describeField = (p: Json): string => p.description ?? p.allOf?.[0]?.description ?? resolve(p)?.description ?? ""

const fieldRows = (schema: Json | undefined) => {
  const s = resolve(schema)
  const props: Json = s?.properties ?? {}
  const required = new Set<string>(s?.required ?? [])
  return Object.entries(props)
    .map(
      ([name, p]) =>
        `<tr><td>${code(name)}</td><td>${esc(typeOf(p))}</td><td>${required.has(name) ? "yes" : "no"}</td><td>${esc(describeField(p as Json))}</td></tr>`
    )
    .join("")
}

const table = (head: ReadonlyArray<string>, rows: string) =>
  rows ? `<table><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr>${rows}</table>` : ""

/** The example call as curl: what the OpenAPI document gives as parameter and body examples. */
const curlOf = (path: string, method: string, op: Json) => {
  let url = path
  const query = new URLSearchParams()
  for (const p of op.parameters ?? []) {
    if (p.example === undefined) continue
    if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(p.example))
    else query.set(p.name, String(p.example))
  }
  const body = op.requestBody?.content?.["application/json"]?.example
  const lines = [`curl -sS${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "$BASE_URL${url}${query.size ? `?${query}` : ""}"`, `  -H "Authorization: Bearer $API_KEY"`]
  if (body !== undefined) lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`)
  return lines.join(" \\\n")
}

const operation = (path: string, method: string, op: Json) => {
  const params = (op.parameters ?? [])
    .map(
      (p: Json) =>
        `<tr><td>${code(p.name)}</td><td>${p.in}</td><td>${esc(typeOf(p.schema))}</td><td>${p.required ? "yes" : "no"}</td><td>${esc(p.description ?? "")}</td><td>${p.example !== undefined ? code(String(p.example)) : ""}</td></tr>`
    )
    .join("")
  const body = op.requestBody?.content?.["application/json"]?.schema
  const success = op.responses?.["200"]?.content?.["application/json"]?.schema
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => `<tr><td>${status}</td><td>${esc((r as Json).description)}</td></tr>`)
    .join("")
  return `<section class="op" id="${esc(op.operationId)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> ${code(path)}</h3>
<p>${esc(op.summary ?? "")}</p><p class="meta">${esc(op.description ?? "")}</p>
${table(["Parameter", "In", "Type", "Required", "What it does and its rule", "Example"], params)}
${body ? `<h4>JSON body</h4>${table(["Field", "Type", "Required", "What it does and its rule"], fieldRows(body))}${resolve(body)?.description ? `<p class="meta">${esc(resolve(body)!.description)}</p>` : ""}` : ""}
${success ? `<details><summary>200 answer fields</summary>${table(["Field", "Type", "Always", "Meaning"], fieldRows(success))}</details>` : ""}
<h4>Responses</h4>${table(["Status", "Meaning"], responses)}
<h4>Example (sample corpus)</h4><pre>${esc(curlOf(path, method, op))}</pre>
</section>`
}

const render = () => {
  const doc = openApiDocument
  const byTag = new Map<string, Array<string>>()
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const tag = op.tags?.[0] ?? "other"
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(path, method, op)])
    }
  }
  const tags: Array<Json> = doc.tags ?? []
  const nav = [...byTag.keys()].map((t) => `<a href="#tag-${esc(t)}">${esc(t)}</a>`).join(" · ")
  const sections = [...byTag.entries()]
    .map(([t, ops]) => `<h2 id="tag-${esc(t)}">${esc(t)}</h2><p>${esc(tags.find((x) => x.name === t)?.description ?? "")}</p>${ops.join("")}`)
    .join("")
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/docs/swagger-ui.css">
<style>
body{margin:0}
.reference{font:15px/1.5 system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
.reference h2{border-bottom:2px solid #ddd;margin-top:2em}.reference .op{border:1px solid #e3e3e3;border-radius:6px;padding:.5em 1em;margin:1em 0}
.reference table{border-collapse:collapse;width:100%;margin:.5em 0}.reference td,.reference th{border:1px solid #e6e6e6;padding:.25em .5em;text-align:left;vertical-align:top}
.reference th{background:#f6f6f6}.reference .m{display:inline-block;min-width:4em;font-weight:600}.reference .get{color:#0a6}.reference .post{color:#06c}
.reference .meta{color:#555;font-size:.92em}.reference code{background:#f4f4f4;padding:0 .25em;border-radius:3px}
.reference pre{background:#f7f7f7;border:1px solid #e6e6e6;border-radius:4px;padding:.5em;overflow:auto;white-space:pre-wrap;font-size:.88em}
</style></head><body>
<div id="swagger-ui"></div>
<noscript><div class="reference">
<h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
<p>${esc(doc.info.description ?? "")}</p>
<p>Base path ${code("/api/v1")}. Authenticate with ${code("Authorization: Bearer ak_live_…")}. Machine-readable document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. The same capabilities are MCP tools at ${code("/mcp")} (streamable HTTP, same key). With scripts enabled this page is Swagger UI, with a "Try it out" button on every operation.</p>
<h4>Error envelopes</h4><ul>
<li>${code("/prior-art")} routes: ${code("{success:false, error}")}; 500 adds ${code("request_id")}.</li>
<li>Patent map, warm-up, prosecution intelligence, guidance: ${code("{error, code, timestamp}")}.</li>
<li>Claim validation: ${code("{error}")}.</li>
<li>Authentication and quota refusals (401, 403, 429, 500 AUTH_SYSTEM_ERROR) carry ${code("code")} on every route; 503 while draining carries no code.</li></ul>
<nav>${nav}</nav>${sections}
</div></noscript>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body></html>`
}

export const docsPage: string = render()
