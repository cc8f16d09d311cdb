/** hyde with an OpenAI-compatible chat endpoint configured (LLM_URL, LLM_MODEL): the model drafts, and says so. */
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../api/support.ts"
import { startPriorArt, type PriorArtFixture } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

let llm: Server
let f: PriorArtFixture
const seen: any[] = []

beforeAll(async () => {
  llm = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => {
      seen.push({ url: req.url, body: JSON.parse(body) })
      res.setHeader("content-type", "application/json")
      res.end(JSON.stringify({ choices: [{ message: { content: "ABSTRACT: A wind turbine blade with a carbon spar cap bonded to a glass fibre shell.\nCLAIM 1: A wind turbine blade comprising a spar cap and a shell." } }] }))
    })
  })
  await new Promise<void>((r) => llm.listen(0, "127.0.0.1", r))
  process.env.LLM_URL = `http://127.0.0.1:${(llm.address() as { port: number }).port}/v1`
  process.env.LLM_MODEL = "stub-model"
  f = await startPriorArt(sampleDir)
})
afterAll(async () => {
  delete process.env.LLM_URL
  delete process.env.LLM_MODEL
  await f?.close()
  llm?.close()
})

describe("hyde through a chat model", () => {
  it("searches the model's abstract and first claim and names the model in metadata.hyde", async () => {
    const r = await call(f.server.url, "POST", "/api/v1/prior-art", { key: f.key, body: { claims: "A rotor blade for a wind turbine with a spar.", hyde: true, count: 5 } })
    expect(r.status).toBe(200)
    expect(seen[0].url).toBe("/v1/chat/completions")
    expect(seen[0].body.model).toBe("stub-model")
    expect(r.json.data.metadata.hyde).toMatchObject({
      generator: "llm:stub-model",
      abstract: "A wind turbine blade with a carbon spar cap bonded to a glass fibre shell.",
      claim: "A wind turbine blade comprising a spar cap and a shell.",
      text: "A wind turbine blade with a carbon spar cap bonded to a glass fibre shell. [SEP] A wind turbine blade comprising a spar cap and a shell."
    })
    expect(r.json.data.specifications).toHaveLength(5)
  })
})
