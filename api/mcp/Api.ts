/**
 * POST /mcp: the MCP endpoint (streamable HTTP, stateless), behind the same authentication as
 * every REST route. It is not part of the REST contract, so the OpenAPI document leaves it out;
 * GET and DELETE /mcp match no endpoint and are answered 405 by the outer middleware.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { MCP_PATH } from "../dispatch/RestDispatch.ts"
import { Refused } from "../http/envelopes.ts"

export class McpApi extends HttpApiGroup.make("mcp", { topLevel: true })
  .add(HttpApiEndpoint.post("jsonRpc", MCP_PATH).addError(Refused.tooLarge).addError(Refused.mediaType).addError(Refused.unreadable))
  .annotate(OpenApi.Exclude, true) {}
