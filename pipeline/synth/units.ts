/**
 * Work units: the output split into pieces that share no file, so any thread can write any unit
 * and the bytes never depend on who wrote what or when. An application unit is a run of whole
 * publication weeks (their ipa files) plus one PEDS file for the same applications; a grant unit
 * is a run of whole issue weeks (their ipg files).
 */
import path from "node:path"
import { applicationXml } from "./application-xml.ts"
import { yymmdd } from "./dates.ts"
import type { Docket } from "./docket.ts"
import { generate, grantOf } from "./document.ts"
import { grantXml } from "./grant-xml.ts"
import { PEDS_RECORDS_PER_FILE, PedsFile, pedsJson } from "./peds.ts"
import { EventSink } from "./prosecution.ts"
import { RotatingFiles } from "./writer.ts"

/** Applications [start, end) by index, or grants [start, end) by rank in issue order. */
export type Unit =
  | { readonly kind: "applications"; readonly start: number; readonly end: number; readonly part: number }
  | { readonly kind: "grants"; readonly start: number; readonly end: number }

const GRANTS_PER_UNIT = 4000

export interface Plan {
  readonly units: readonly Unit[]
  readonly applicationFiles: number
  readonly grantFiles: number
  readonly pedsFiles: number
}

export const planUnits = (docket: Docket): Plan => {
  const units: Unit[] = []
  let weeks = 0
  let start = 0
  let part = 0
  for (let i = 0; i < docket.n; i++) {
    const newWeek = i === 0 || docket.pubDay(i) !== docket.pubDay(i - 1)
    if (newWeek) weeks++
    if (newWeek && i - start >= PEDS_RECORDS_PER_FILE) {
      units.push({ kind: "applications", start, end: i, part: ++part })
      start = i
    }
  }
  units.push({ kind: "applications", start, end: docket.n, part: ++part })
  const order = docket.issueOrder
  let grantWeeks = 0
  start = 0
  for (let r = 0; r < order.length; r++) {
    const newWeek = r === 0 || docket.issueDay[order[r]] !== docket.issueDay[order[r - 1]]
    if (newWeek) grantWeeks++
    if (newWeek && r - start >= GRANTS_PER_UNIT) {
      units.push({ kind: "grants", start, end: r })
      start = r
    }
  }
  if (order.length > start) units.push({ kind: "grants", start, end: order.length })
  // Largest first, so the last units to finish are small ones (balanced threads).
  const cost = (u: Unit) => (u.end - u.start) * (u.kind === "applications" ? 1.6 : 1)
  units.sort((a, b) => cost(b) - cost(a) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.start - b.start))
  return { units, applicationFiles: weeks, grantFiles: grantWeeks, pedsFiles: part }
}

export interface UnitContext {
  readonly docket: Docket
  readonly out: string
  readonly level: number
  /** Called now and then with documents written since the last call. */
  readonly progress: (applications: number, grants: number) => void
}

export const pedsFileName = (part: number): string => `synthetic-peds-${String(part).padStart(4, "0")}.json.gz`

export const runUnit = async (ctx: UnitContext, unit: Unit): Promise<void> => {
  const { docket, out, level } = ctx
  if (unit.kind === "applications") {
    const files = new RotatingFiles(path.join(out, "uspto", "applications"), level)
    const peds = await PedsFile.open(path.join(out, "peds", pedsFileName(unit.part)), level)
    const sink = new EventSink()
    let done = 0
    for (let i = unit.start; i < unit.end; i++) {
      const app = generate(docket, i)
      await files.write(`ipa${yymmdd(app.pubDay)}.xml.gz`, applicationXml(docket, app))
      await peds.write(pedsJson(docket, app, sink))
      if (++done === 512) {
        ctx.progress(done, 0)
        done = 0
      }
    }
    await files.close()
    await peds.close()
    ctx.progress(done, 0)
  } else {
    const files = new RotatingFiles(path.join(out, "uspto", "grants"), level)
    let done = 0
    for (let r = unit.start; r < unit.end; r++) {
      const app = generate(docket, docket.issueOrder[r])
      const grant = grantOf(docket, app)!
      await files.write(`ipg${yymmdd(grant.issueDay)}.xml.gz`, grantXml(docket, app, grant))
      if (++done === 512) {
        ctx.progress(0, done)
        done = 0
      }
    }
    await files.close()
    ctx.progress(0, done)
  }
}
