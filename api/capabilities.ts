/**
 * The capability services behind the route handlers (and so behind the MCP tools, which call
 * the routes). Each reads the served artifacts and/or calls the hub; add new ones here.
 */
import { Layer } from "effect"
import { AntecedentService } from "./claim-validation/AntecedentService.ts"
import { ClaimSupportService } from "./claim-validation/ClaimSupportService.ts"
import { GuidanceService } from "./guidance/GuidanceService.ts"
import { PatentIntelService } from "./patent-intel/PatentIntelService.ts"

export const CapabilitiesLive = Layer.mergeAll(AntecedentService.Default, ClaimSupportService.Default, PatentIntelService.Default, GuidanceService.Default)
