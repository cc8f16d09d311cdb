/**
 * Debian's chromium for browser tests, driven by playwright-core (no browser download). A test
 * file skips itself where the package is missing (`.ci/run` installs it).
 */
import * as fs from "node:fs"
import { chromium } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"

export const hasChromium = (what: string) => {
  const present = fs.existsSync(CHROMIUM)
  if (!present) console.warn(`${what} skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`)
  return present
}

/** Headless, sandbox off (containers), and nothing that reaches outside the machine. */
export const launchChromium = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
  })
