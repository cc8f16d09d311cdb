/**
 * GET /docs in a real browser (Debian's chromium driven by playwright-core, skipped without it):
 * Swagger UI renders all 24 operations from this service's own files, and "Try it out" on GET
 * /warmup, with the key given under "Authorize", shows the 200 answer.
 */
import type { Browser } from "playwright-core"
import { hasChromium, launchChromium } from "../support/chromium.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startStubHub, startTestServer, type StubHub, type TestServer } from "./support.ts"

const chromiumHere = hasChromium("docs browser test")

describe.skipIf(!chromiumHere)("the /docs page in a browser", () => {
  let hub: StubHub
  let server: TestServer
  let browser: Browser

  beforeAll(async () => {
    hub = await startStubHub()
    server = await startTestServer({ hubUrl: hub.url })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await hub?.close()
  })

  it("renders every operation and tries GET /warmup with the key given under Authorize", async () => {
    const key = await server.key()
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    const outside: string[] = []
    page.on("request", (req) => {
      if (!req.url().startsWith(server.url)) outside.push(req.url())
    })
    await page.goto(`${server.url}/docs`)
    await page.waitForSelector(".opblock", { timeout: 30_000 })
    expect(await page.locator(".opblock").count()).toBe(24)
    await page.click("button.authorize")
    await page.fill(".modal-ux input", key)
    await page.click(".modal-ux button.authorize")
    await page.click(".modal-ux button.btn-done")
    await page.click('.opblock-get .opblock-summary-path[data-path="/api/v1/warmup"]')
    await page.click(".opblock.is-open button.execute")
    await page.waitForFunction(
      `[...document.querySelectorAll(".opblock.is-open .live-responses-table .response-col_status")].some((e) => e.textContent.trim() === "200")`,
      undefined,
      { timeout: 15_000 }
    )
    expect(await page.locator(".opblock.is-open .live-responses-table").textContent()).toContain("warmWindowSeconds")
    expect(outside).toEqual([])
    await page.close()
  })
})
