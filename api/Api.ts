/**
 * The whole HTTP surface: six REST groups under /api/v1 and the MCP endpoint, all behind
 * `Authentication` (the bearer key, before routing); the REST groups add `Admission` (permission,
 * body, quota). The OpenAPI document (api/docs/openapi.ts), the route table and the MCP tool list
 * are all derived from this one declaration.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { ClaimValidationApi } from "./claim-validation/Api.ts"
import { GuidanceApi } from "./guidance/Api.ts"
import { McpApi } from "./mcp/Api.ts"
import { PatentIntelApi } from "./patent-intel/Api.ts"
import { PatentMapApi } from "./patent-map/Api.ts"
import { PriorArtApi } from "./prior-art/Api.ts"
import { Authentication } from "./http/security/Api.ts"
import { WarmUpApi } from "./warm-up/Api.ts"

export class PatentApi extends HttpApi.make("patent-intelligence")
  .add(PriorArtApi)
  .add(PatentMapApi)
  .add(ClaimValidationApi)
  .add(WarmUpApi)
  .add(PatentIntelApi)
  .add(GuidanceApi)
  .add(McpApi)
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Patent Intelligence Service")
  .annotate(OpenApi.Version, "0.1.0")
  .annotate(
    OpenApi.Description,
    "JSON-over-HTTP API for patent professionals: prior-art search, the shared patent space, §112 claim validation, hub warm-up, prosecution intelligence and examination guidance. Every request carries `Authorization: Bearer <API_KEY>`."
  ) {}
