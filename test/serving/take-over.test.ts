/**
 * A nightly build's record files (pipeline/serving/take-over.ts) are byte for byte the files a
 * full write gives, while copying the records of keys whose rows did not change from the version
 * they replace.
 *
 * From the sample build's tables, two nights are made: the earlier one lacks a tenth of the
 * applications (by hash) and has other claim texts for another tenth; the later one has those
 * applications and texts, but lacks a third tenth (deleted overnight). The later night's records
 * written with the earlier night's files at hand equal its records written from scratch.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { filesUnder, parquetFilesOf, sqlString } from "../../core/artifacts/files.ts"
import { recordFileNames, SERVING_DIR } from "../../core/serving/records.ts"
import { answersEqual, storedDocuments } from "../support/serving-answers.ts"
import { writeStoredDocuments } from "../../pipeline/documents/stage.ts"
import { CHANGES_DIR, changeListFile, writeChangedKeys, writeChangedRows, writeChangeListing } from "../../pipeline/ingest/changes.ts"
import { writeServingRecords } from "../../pipeline/serving/stage.ts"
import { tempDir } from "../api/support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()

/** The application-number column of each table the record specs read (others are copied whole). */
const appColumn: Readonly<Record<string, string>> = {
  applications: "app_num",
  claims: "app_num",
  description_paragraphs: "app_num",
  cpc_assignments: "app_num",
  citations: "citing_app",
  continuity: "child_app",
  publications: "app_num",
  vectors: "app_num",
  coordinates: "app_num"
}

/** A night's copy of the version's tables: applications of tenth `absent` left out, claims of tenth `edited` reworded. */
const night = async (dir: string, o: { absent: number; edited?: number }) => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  try {
    for (const rel of await parquetFilesOf(versionDir)) {
      const table = path.basename(rel, ".parquet")
      await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true })
      const column = appColumn[table]
      const source = `read_parquet(${sqlString(path.join(versionDir, rel))})`
      const keep = column ? `WHERE ${column} IS NULL OR hash(${column}) % 10 <> ${o.absent}` : ""
      const select =
        table === "claims" && o.edited !== undefined
          ? `SELECT * REPLACE (CASE WHEN hash(app_num) % 10 = ${o.edited} THEN text || ' (as first filed)' ELSE text END AS text) FROM ${source} ${keep}`
          : `SELECT * FROM ${source} ${keep}`
      await c.run(`COPY (${select}) TO ${sqlString(path.join(dir, rel))} (FORMAT parquet)`)
    }
  } finally {
    c.closeSync()
    db.closeSync()
  }
}

/** Tables whose change lists the test writes, the way ingest's merge by entity does. */
const listedTables = ["applications", "publications", "claims", "citations", "cpc_assignments", "description_paragraphs", "continuity"]

/**
 * Ingest's change lists for `dir` against `since`: every key of the tenths that differ between the
 * two nights (gone, reworded, new), whether or not a table's rows of it changed, as a merge by
 * entity lists them; or, with `none`, every table linked unchanged.
 */
const changeLists = async (dir: string, since: string, tenths: ReadonlyArray<number>) => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  try {
    for (const t of tenths.length ? listedTables : []) {
      const source = `read_parquet(${sqlString(path.join(versionDir, "tables", `${t}.parquet`))})`
      await writeChangedKeys(c, dir, t, `(SELECT DISTINCT ${appColumn[t]} AS k FROM ${source} WHERE hash(${appColumn[t]}) % 10 IN (${tenths.join(", ")}))`)
      // Their rows as this night holds them, as the merge writes them beside the keys.
      const night = `read_parquet(${sqlString(path.join(dir, "tables", `${t}.parquet`))})`
      await writeChangedRows(c, dir, t, `(SELECT * FROM ${night} WHERE ${appColumn[t]} IN (SELECT k FROM read_parquet(${sqlString(path.join(dir, changeListFile(t)))})))`)
    }
    await writeChangeListing(dir, { since: path.basename(since), unchanged: tenths.length ? [] : listedTables, byEntity: tenths.length ? listedTables : [] })
  } finally {
    c.closeSync()
    db.closeSync()
  }
}

const servingFiles = async (dir: string) => (await filesUnder(path.join(dir, SERVING_DIR))).sort()

let root: string
let earlier: string
let fromScratch: string
let nightly: string
let nightlyNotes: ReadonlyArray<string>
let documentNotes: ReadonlyArray<string>
/** The same night built with ingest's change lists, and a night where nothing changed. */
let listed: string
let listedNotes: ReadonlyArray<string>
let unchanged: string
let unchangedNotes: ReadonlyArray<string>
let listedDocumentNotes: ReadonlyArray<string>
/** The listed night written as deltas beside the earlier base files, then a second night on top of it. */
let delta: string
let deltaNotes: ReadonlyArray<string>
let second: string
let secondScratch: string
let secondNotes: ReadonlyArray<string>
let compacted: string
let compactedNotes: ReadonlyArray<string>
/** A night with few keys listed whose delta, with the earlier one's carried, outgrows its share of the base. */
let folded: string
let foldedScratch: string
let foldedNotes: ReadonlyArray<string>
let deltaDocumentNotes: ReadonlyArray<string>
let secondDocumentNotes: ReadonlyArray<string>
let compactedDocumentNotes: ReadonlyArray<string>

beforeAll(async () => {
  root = tempDir("serving-take-over")
  earlier = path.join(root, "earlier")
  fromScratch = path.join(root, "scratch")
  nightly = path.join(root, "nightly")
  await night(earlier, { absent: 0, edited: 1 })
  await night(fromScratch, { absent: 2 })
  await night(nightly, { absent: 2 })
  await writeServingRecords(earlier)
  await writeServingRecords(fromScratch)
  nightlyNotes = (await writeServingRecords(nightly, () => {}, earlier)).notes ?? []
  await writeStoredDocuments(earlier)
  await writeStoredDocuments(fromScratch)
  documentNotes = (await writeStoredDocuments(nightly, () => {}, earlier)).notes ?? []
  listed = path.join(root, "listed")
  await night(listed, { absent: 2 })
  await changeLists(listed, earlier, [0, 1, 2])
  // Deltas off (0): the same night must give whole files byte for byte.
  listedNotes = (await writeServingRecords(listed, () => {}, earlier, path.join(listed, CHANGES_DIR), 0)).notes ?? []
  listedDocumentNotes = (await writeStoredDocuments(listed, () => {}, earlier, path.join(listed, CHANGES_DIR), 0)).notes ?? []
  unchanged = path.join(root, "unchanged")
  await night(unchanged, { absent: 0, edited: 1 })
  await changeLists(unchanged, earlier, [])
  unchangedNotes = (await writeServingRecords(unchanged, () => {}, earlier, path.join(unchanged, CHANGES_DIR))).notes ?? []
  delta = path.join(root, "delta")
  await night(delta, { absent: 2 })
  await changeLists(delta, earlier, [0, 1, 2])
  deltaNotes = (await writeServingRecords(delta, () => {}, earlier, path.join(delta, CHANGES_DIR), 1)).notes ?? []
  deltaDocumentNotes = (await writeStoredDocuments(delta, () => {}, earlier, path.join(delta, CHANGES_DIR), 1)).notes ?? []
  // The night after: tenth 2 comes back, tenth 3 goes and tenth 4 is reworded.
  second = path.join(root, "second")
  secondScratch = path.join(root, "second-scratch")
  await night(second, { absent: 3, edited: 4 })
  await night(secondScratch, { absent: 3, edited: 4 })
  await writeServingRecords(secondScratch)
  await changeLists(second, delta, [2, 3, 4])
  secondNotes = (await writeServingRecords(second, () => {}, delta, path.join(second, CHANGES_DIR), 1)).notes ?? []
  await writeStoredDocuments(secondScratch)
  secondDocumentNotes = (await writeStoredDocuments(second, () => {}, delta, path.join(second, CHANGES_DIR), 1)).notes ?? []
  // The same night with a delta allowed only a sliver of the base: written whole again.
  compacted = path.join(root, "compacted")
  await night(compacted, { absent: 3, edited: 4 })
  await changeLists(compacted, delta, [2, 3, 4])
  compactedNotes = (await writeServingRecords(compacted, () => {}, delta, path.join(compacted, CHANGES_DIR), 0.001)).notes ?? []
  compactedDocumentNotes = (await writeStoredDocuments(compacted, () => {}, delta, path.join(compacted, CHANGES_DIR), 0.001)).notes ?? []
  folded = path.join(root, "folded")
  foldedScratch = path.join(root, "folded-scratch")
  await night(folded, { absent: 2, edited: 4 })
  await night(foldedScratch, { absent: 2, edited: 4 })
  await writeServingRecords(foldedScratch)
  await changeLists(folded, delta, [4])
  foldedNotes = (await writeServingRecords(folded, () => {}, delta, path.join(folded, CHANGES_DIR), 0.15)).notes ?? []
}, 300_000)

afterAll(async () => {
  if (root) await fs.rm(root, { recursive: true, force: true })
})

describe("serving records of a nightly build", () => {
  it("are byte-identical to a full write, record files and fingerprints alike", async () => {
    const files = await servingFiles(fromScratch)
    expect(files).toEqual(await servingFiles(nightly))
    expect(files).toContain("claims.bin")
    expect(files).toContain(".fingerprints/claims.parquet")
    for (const f of files) {
      const [a, b] = await Promise.all([fs.readFile(path.join(fromScratch, SERVING_DIR, f)), fs.readFile(path.join(nightly, SERVING_DIR, f))])
      expect(a.equals(b), `serving/${f} differs from the full write`).toBe(true)
    }
  })

  it("copies the unchanged records and writes only what was added, changed or removed", () => {
    const claims = nightlyNotes.find((n) => n.startsWith("serving/claims:"))
    expect(claims).toBeDefined()
    const [takenOver, written, replaced] = claims!.match(/\d+/g)!.map(Number)
    // About seven tenths of the applications are unchanged, one tenth is new, one tenth reworded and one tenth gone.
    expect(takenOver).toBeGreaterThan(written * 2)
    expect(written).toBeGreaterThan(0)
    expect(replaced).toBeGreaterThan(0)
    // Ordinal files (map points by vector key) are always written whole: nothing is taken over.
    const points = nightlyNotes.find((n) => n.startsWith("serving/points:"))
    expect(points).toMatch(/^serving\/points: \d+ records written \(/)
  })

  it("with ingest's change lists, reads only the listed keys and still equals a full write", async () => {
    const files = await servingFiles(fromScratch)
    expect(await servingFiles(listed)).toEqual(files)
    for (const f of files) {
      const [a, b] = await Promise.all([fs.readFile(path.join(fromScratch, SERVING_DIR, f)), fs.readFile(path.join(listed, SERVING_DIR, f))])
      expect(a.equals(b), `serving/${f} differs from the full write`).toBe(true)
    }
    const claims = listedNotes.find((n) => n.startsWith("serving/claims:"))
    expect(claims).toMatch(/keys listed as changed by ingest/)
    const [takenOver, written] = claims!.match(/\d+/g)!.map(Number)
    expect(takenOver).toBeGreaterThan(written * 2)
    expect(written).toBeGreaterThan(0)
    // Applications (which also read vector keys) and publications (keyed by publication number) take the lists too.
    expect(listedNotes.find((n) => n.startsWith("serving/applications:"))).toMatch(/keys listed as changed by ingest/)
    expect(listedNotes.find((n) => n.startsWith("serving/publications:"))).toMatch(/keys listed as changed by ingest/)
    // A record file without change lists (examiners: the prosecution stage's output) is still compared by fingerprints.
    expect(listedNotes.find((n) => n.startsWith("serving/examiners:"))).toMatch(/earlier ones replaced or removed/)
  })

  it("links a record file none of whose keys changed, and a changed list against another version is not trusted", async () => {
    for (const name of ["publications", "claims", "citations", "cpc", "paragraphs", "parents"]) {
      expect(unchangedNotes.find((n) => n.startsWith(`serving/${name}:`))).toMatch(/unchanged since the earlier version .* records linked/)
      for (const f of [`${name}.bin`, `${name}.idx`, `.fingerprints/${name}.parquet`]) {
        const [a, b] = await Promise.all([fs.stat(path.join(earlier, SERVING_DIR, f)), fs.stat(path.join(unchanged, SERVING_DIR, f))])
        expect(b.ino, f).toBe(a.ino)
      }
    }
    // Lists made against `earlier` say nothing about a build that replaces another version: every key is fingerprinted.
    const other = (await writeServingRecords(listed, () => {}, fromScratch, path.join(listed, CHANGES_DIR))).notes ?? []
    expect(other.find((n) => n.startsWith("serving/claims:"))).toMatch(/earlier ones replaced or removed/)
  })

  it("writes a delta beside the earlier base file, which answers every key as a full write does", async () => {
    for (const name of ["applications", "publications", "claims", "citations", "cpc", "paragraphs", "parents"]) {
      expect(deltaNotes.find((n) => n.startsWith(`serving/${name}:`))).toMatch(/the base file linked and a delta of \d+ keys written/)
      const files = recordFileNames(name)
      for (const f of [files.data, files.index]) expect((await fs.stat(path.join(delta, f))).ino, f).toBe((await fs.stat(path.join(earlier, f))).ino)
    }
    const claims = deltaNotes.find((n) => n.startsWith("serving/claims:"))!
    expect(Number(/(\d+) removed/.exec(claims)![1])).toBeGreaterThan(0)
    await answersEqual(delta, fromScratch, [earlier])
  })

  it("a second night keeps the first base, folds the earlier delta into its own, and answers as a full write", async () => {
    const claims = secondNotes.find((n) => n.startsWith("serving/claims:"))!
    expect(claims).toMatch(/the base file linked/)
    expect(Number(/(\d+) carried from the earlier delta/.exec(claims)![1])).toBeGreaterThan(0)
    const files = recordFileNames("claims")
    expect((await fs.stat(path.join(second, files.data))).ino).toBe((await fs.stat(path.join(earlier, files.data))).ino)
    await answersEqual(second, secondScratch, [earlier, delta])
  })

  it("writes the file whole again once the delta outgrows its share of the base, byte for byte a full write", async () => {
    // More keys listed than a delta may hold: whole at once.
    expect(compactedNotes.find((n) => n.startsWith("serving/claims:"))).toMatch(/taken over from the earlier version, .* keys listed as changed by ingest/)
    // Few keys listed, but with the earlier delta's records carried the delta outgrows its share: the base and delta merged.
    expect(foldedNotes.find((n) => n.startsWith("serving/claims:"))).toMatch(/written whole, the earlier file and this night's delta of \d+ keys merged/)
    for (const f of await servingFiles(foldedScratch)) {
      const [a, b] = await Promise.all([fs.readFile(path.join(foldedScratch, SERVING_DIR, f)), fs.readFile(path.join(folded, SERVING_DIR, f))])
      expect(a.equals(b), `serving/${f} differs from the full write`).toBe(true)
    }
    const files = await servingFiles(secondScratch)
    expect(await servingFiles(compacted)).toEqual(files)
    for (const f of files) {
      const [a, b] = await Promise.all([fs.readFile(path.join(secondScratch, SERVING_DIR, f)), fs.readFile(path.join(compacted, SERVING_DIR, f))])
      expect(a.equals(b), `serving/${f} differs from the full write`).toBe(true)
    }
  })

  it("takes nothing over without an earlier version", async () => {
    const scratchNotes = (await writeServingRecords(fromScratch)).notes ?? []
    expect(scratchNotes.filter((n) => n.includes("taken over"))).toEqual([])
  })
})

describe("stored documents of a nightly build", () => {
  it("are byte-identical to a full write, and the unchanged ones are copied", async () => {
    const files = (await filesUnder(path.join(fromScratch, "documents"))).sort()
    expect(files).toEqual(["stored.bin", "stored_docs.parquet", ".fingerprints/stored_docs.parquet"].sort())
    for (const f of files) {
      if (f.endsWith(".parquet")) continue // Parquet files carry their writer's metadata; their rows are compared below.
      const [a, b] = await Promise.all([fs.readFile(path.join(fromScratch, "documents", f)), fs.readFile(path.join(nightly, "documents", f))])
      expect(a.equals(b), `documents/${f} differs from the full write`).toBe(true)
    }
    const db = await DuckDBInstance.create(":memory:")
    const c = await db.connect()
    try {
      for (const f of files.filter((f) => f.endsWith(".parquet"))) {
        const rows = async (dir: string) => (await c.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(path.join(dir, "documents", f))})`)).getRowsJS()
        expect(await rows(nightly)).toEqual(await rows(fromScratch))
        expect(await rows(listed)).toEqual(await rows(fromScratch))
      }
    } finally {
      c.closeSync()
      db.closeSync()
    }
    // With ingest's change lists: the same files, only the listed applications read.
    expect(listedDocumentNotes[0]).toMatch(/applications listed as changed by ingest/)
    expect((await fs.readFile(path.join(listed, "documents", "stored.bin"))).equals(await fs.readFile(path.join(fromScratch, "documents", "stored.bin")))).toBe(true)
    const [takenOver, written, replaced] = documentNotes[0]!.match(/\d+/g)!.map(Number)
    expect(takenOver).toBeGreaterThan(written * 2)
    expect(written).toBeGreaterThan(0)
    expect(replaced).toBeGreaterThan(0)
  })
})

describe("stored documents written as a delta", () => {
  it("link the earlier stored.bin, write a delta, and read back as a full write, night after night", async () => {
    expect(deltaDocumentNotes.join(" ")).toMatch(/stored.bin linked from the earlier version, a delta of \d+ bytes written/)
    expect((await fs.stat(path.join(delta, "documents", "stored.bin"))).ino).toBe((await fs.stat(path.join(earlier, "documents", "stored.bin"))).ino)
    expect(await storedDocuments(delta)).toEqual(await storedDocuments(fromScratch))
    // The second night keeps the first base and carries the earlier delta's documents it did not list.
    expect(secondDocumentNotes.join(" ")).toMatch(/stored.bin linked/)
    expect((await fs.stat(path.join(second, "documents", "stored.bin"))).ino).toBe((await fs.stat(path.join(earlier, "documents", "stored.bin"))).ino)
    expect(await storedDocuments(second)).toEqual(await storedDocuments(secondScratch))
  })

  it("write stored.bin whole again once the delta outgrows its share, byte for byte a full write", async () => {
    expect(compactedDocumentNotes.join(" ")).toMatch(/stored.bin written whole/)
    await expect(fs.access(path.join(compacted, "documents", "stored.delta.bin"))).rejects.toThrow()
    expect((await fs.readFile(path.join(compacted, "documents", "stored.bin"))).equals(await fs.readFile(path.join(secondScratch, "documents", "stored.bin")))).toBe(true)
    expect(await storedDocuments(compacted)).toEqual(await storedDocuments(secondScratch))
  })
})
