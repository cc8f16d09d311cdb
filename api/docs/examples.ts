/**
 * One worked example per route, taken from the bundled sample corpus: the OpenAPI document shows
 * them (parameter and body examples) and a test calls every route with them against the sample
 * build, so the examples are known to answer as documented.
 */
export interface RouteExample {
  readonly params?: Readonly<Record<string, string>>
  readonly query?: Readonly<Record<string, string>>
  readonly body?: unknown
}

const CLAIM_SET = [
  "A fastening device comprising a housing and a lever pivotally mounted to the housing.",
  "The fastening device of claim 1, wherein the latch engages the housing."
]

export const routeExamples: Readonly<Record<string, RouteExample>> = {
  "POST /api/v1/prior-art": {
    body: { claims: "A capacitive probe for measuring the moisture of soil around plant roots, comprising a pair of electrodes.", count: 5, hybrid: true }
  },
  "POST /api/v1/prior-art/claims": { body: { appNumbers: ["17356223", "10391892"], independentOnly: true } },
  "GET /api/v1/patent-map/patent/:appNum": { params: { appNum: "17356223" }, query: { topK: "5" } },
  "GET /api/v1/patent-map/patent/:appNum/citations": { params: { appNum: "17356223" } },
  "POST /api/v1/patent-map/locate": { body: { query: "capacitive soil moisture probe with electrodes", topK: 5 } },
  "GET /api/v1/patent-map/whitespace": { query: { limit: "5", minOpportunity: "0.1" } },
  "GET /api/v1/patent-map/points": { query: { limit: "100", section: "G" } },
  "POST /api/v1/claim-validation/antecedent-basis": { body: { claims: CLAIM_SET, minSeverity: "medium" } },
  "GET /api/v1/claim-validation/antecedent-basis/:appNum": { params: { appNum: "10391892" }, query: { minSeverity: "high" } },
  "POST /api/v1/claim-validation/support": {
    body: {
      claims: [{ number: 1, text: CLAIM_SET[0] }],
      sections: [{ name: "Detailed description", text: "As used herein, the term housing refers to an enclosure. In one embodiment, shown in FIG. 1, the lever 12 is pivotally mounted to the housing 10." }]
    }
  },
  "GET /api/v1/claim-validation/support/:appNum": { params: { appNum: "10391892" }, query: { maxAncestors: "3" } },
  "POST /api/v1/warmup": { query: { wait: "10" } },
  "GET /api/v1/warmup": {},
  "GET /api/v1/patent-intel/cpc/:code": { params: { code: "G06F" }, query: { childLimit: "5", distributionLimit: "5" } },
  "GET /api/v1/patent-intel/classification/:number": { params: { number: "20220414841" } },
  "GET /api/v1/patent-intel/art-unit/:artUnit": { params: { artUnit: "2863" } },
  "GET /api/v1/patent-intel/examiners": { query: { artUnit: "2863", limit: "5" } },
  "GET /api/v1/patent-intel/examiner/:examiner": { params: { examiner: "bryant-christian-thomas" }, query: { include: "rejection_analysis" } },
  "GET /api/v1/guidance/mpep/:sectionId": { params: { sectionId: "2173.05(e)" } },
  "GET /api/v1/guidance/epo/:sectionId": { params: { sectionId: "G-VII-5.1" } },
  "GET /api/v1/guidance/form-paragraph/:code": { params: { code: "7.34.01" } },
  "GET /api/v1/guidance/form-paragraphs": { query: { rejectionType: "indefiniteness", limit: "5" } },
  "GET /api/v1/guidance/graph/:nodeId": { params: { nodeId: "mpep-2173.02" }, query: { limit: "10" } },
  "GET /api/v1/guidance/design-code/:code": { params: { code: "01.01" } }
}
