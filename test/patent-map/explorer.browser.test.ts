/**
 * GET /map in a real browser (Debian's chromium driven by playwright-core): the page asks for a
 * key, loads the points and the whitespace atlas from the API and draws them.
 */
import type { Browser } from "playwright-core"
import { hasChromium, launchChromium } from "../support/chromium.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer, type TestServer } from "../api/support.ts"
import { removeCopies, withPlantedVoid } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

const chromiumHere = hasChromium("explorer browser test")

describe.skipIf(!chromiumHere)("the /map explorer page", () => {
  let server: TestServer
  let browser: Browser
  let key: string

  beforeAll(async () => {
    // A planted void, so there is one to draw whatever the sample's own atlas holds.
    server = await startTestServer({ artifactsDir: await withPlantedVoid(sampleDir) })
    key = await server.key({ daily: 10_000, monthly: 10_000 })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await removeCopies()
  })

  it("is served without a key as a self-contained page", async () => {
    const r = await call(server.url, "GET", "/map")
    expect(r.status).toBe(200)
    expect(r.headers.get("content-type")).toMatch(/text\/html/)
    expect(r.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=/)
  })

  it("draws the point cloud and the voids once a key is entered", async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } })
    const outside: string[] = []
    page.on("request", (req) => {
      if (!req.url().startsWith(server.url)) outside.push(req.url())
    })
    await page.goto(`${server.url}/map`)
    await page.fill("#key", key)
    await page.click("#auth button")
    // Page-side code is passed as strings: the project compiles without the DOM library.
    await page.waitForFunction(`Number(document.getElementById("map").dataset.points || 0) > 0`, undefined, { timeout: 30_000 })
    const drawn = (await page.evaluate(`({ points: window.__explorer.drawnPoints, voids: window.__explorer.drawnVoids })`)) as { points: number; voids: number }
    expect(drawn.points).toBeGreaterThan(1000)
    expect(drawn.voids).toBeGreaterThan(0)
    expect(await page.textContent("#status")).toMatch(/points/)
    // Something other than the background was painted.
    const painted = (await page.evaluate(`(() => {
      const c = document.getElementById("map")
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data
      let n = 0
      for (let i = 0; i < d.length; i += 4) if (d[i] !== 15 || d[i + 1] !== 18 || d[i + 2] !== 24) n++
      return n
    })()`)) as number
    expect(painted).toBeGreaterThan(1000)
    expect(outside).toEqual([])
    await page.close()
  })

  it("says so when the key is refused", async () => {
    const page = await browser.newPage()
    await page.goto(`${server.url}/map`)
    await page.fill("#key", "not-a-key")
    await page.click("#auth button")
    await page.waitForFunction(`/Could not load/.test(document.getElementById("status").textContent)`, undefined, { timeout: 15_000 })
    await page.close()
  })
})
