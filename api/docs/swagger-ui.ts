/**
 * The files /docs loads: Swagger UI from the installed swagger-ui-dist package (no CDN, nothing
 * fetched from elsewhere), read once when the service starts, and the few lines that point it at
 * /api/v1/openapi.json. Swagger UI shows each operation with its parameters, their descriptions
 * and the sample-corpus examples, and sends "Try it out" calls from the page with the key given
 * under "Authorize" (kept for the tab only).
 */
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"

export interface DocsAsset {
  readonly body: string
  readonly contentType: string
}

const dist = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))

/** The package's file without its source-map comment (the maps are not served). */
const distFile = (name: string) =>
  fs
    .readFileSync(path.join(dist, name), "utf8")
    .replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, "")
    .replace(/\n?\/\*# sourceMappingURL=\S+\s*\*\/\s*$/, "")

/**
 * Swagger UI's settings: every operation ready to try (the examples filled in), the key kept for
 * the tab, no call to the online validator (validatorUrl null: the page talks to this service
 * alone).
 */
const INIT = `window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/api/v1/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayOperationId: false,
    displayRequestDuration: true,
    filter: true,
    persistAuthorization: true,
    tryItOutEnabled: true,
    validatorUrl: null,
    requestSnippetsEnabled: true
  });
});
`

export const DOCS_ASSET_PATHS = ["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/init.js"] as const

export const docsAssets: ReadonlyMap<string, DocsAsset> = new Map([
  ["/docs/swagger-ui.css", { body: distFile("swagger-ui.css"), contentType: "text/css; charset=utf-8" }],
  ["/docs/swagger-ui-bundle.js", { body: distFile("swagger-ui-bundle.js"), contentType: "text/javascript; charset=utf-8" }],
  ["/docs/init.js", { body: INIT, contentType: "text/javascript; charset=utf-8" }]
])
