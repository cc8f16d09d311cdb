/** Classification of a publication or application number against the sample build. */
import { afterAll, describe, expect, it } from "vitest"
import { patentIntelRuntime } from "./runtime.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const pi = patentIntelRuntime(await sampleArtifacts())
afterAll(() => pi.dispose())

describe("getPatentClassification", () => {
  it("a pre-grant publication number and its application number resolve to the same application and symbols", async () => {
    // Application 17356223 was published as US 2022/0414841 A1 and granted as US 11,989,854 B2.
    const byPub = await pi.run((s) => s.getPatentClassification("20220414841"))
    const byApp = await pi.run((s) => s.getPatentClassification("17356223"))
    expect(byPub).toMatchObject({ publication_number: "20220414841", application_number: "17356223", kind_code: "A1", matched_as: "publication_number" })
    expect(byApp).toMatchObject({ publication_number: "11989854", application_number: "17356223", kind_code: "B2", matched_as: "application_number" })
    for (const k of ["main_cpc", "main_cpc_title", "inventive_cpcs", "additional_cpcs"] as const) expect(byPub[k]).toEqual(byApp[k])
  })

  it("serves the main symbol with its scheme title and splits inventive from additional symbols as stored", async () => {
    const body = await pi.run((s) => s.getPatentClassification("17356223"))
    const rows = await pi.sql(`SELECT DISTINCT symbol, is_inventive FROM cpc_assignments WHERE app_num = $1`, ["17356223"])
    expect(new Set(body.inventive_cpcs)).toEqual(new Set(rows.filter((r) => r.is_inventive).map((r) => r.symbol)))
    expect(new Set(body.additional_cpcs)).toEqual(new Set(rows.filter((r) => !r.is_inventive).map((r) => r.symbol)))
    expect(body.main_cpc).toBe("G06N20/00")
    expect(body.main_cpc_title).toBe("Machine learning")
    expect(body.inventive_cpcs).toContain(body.main_cpc)
  })

  it("an application with additional symbols lists them apart from the inventive ones", async () => {
    const [row] = await pi.sql(
      `SELECT app_num FROM cpc_assignments GROUP BY app_num HAVING bool_or(NOT is_inventive) AND bool_or(is_main) ORDER BY app_num LIMIT 1`
    )
    const body = await pi.run((s) => s.getPatentClassification(String(row.app_num)))
    expect(body.additional_cpcs.length).toBeGreaterThan(0)
    expect(body.inventive_cpcs.filter((c) => body.additional_cpcs.includes(c))).toEqual([])
  })

  it("tries the number as a publication number first", async () => {
    // 12270898 is both a patent number (of application 17765970) and an application number.
    const [clash] = await pi.sql(`SELECT p.app_num FROM publications p JOIN applications a ON a.app_num = p.pub_num WHERE p.pub_num = '12270898'`)
    expect(clash.app_num).toBe("17765970")
    const body = await pi.run((s) => s.getPatentClassification("12270898"))
    expect(body).toMatchObject({ matched_as: "publication_number", publication_number: "12270898", application_number: "17765970" })
  })

  it("fails with NotFound for a number that is neither", async () => {
    const err = await pi.fail((s) => s.getPatentClassification("99999999999"))
    expect(err._tag).toBe("NotFound")
  })
})
