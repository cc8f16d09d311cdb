/**
 * Examiner search (SPEC 4.5): anchored, case-insensitive matching only: an exact surname or a
 * prefix of the surname-first full name ("SMITH", "SMITH, J"), optionally within an art unit.
 * Every name variant PEDS used for an examiner is searched; one row per examiner comes back.
 *
 * The examiners are bounded by the examining corps (about 15,000 names nationally), not by the
 * number of applications: they are held in memory for the served version, indexed by upper-case
 * surname, by upper-case full name in sorted order (a prefix is a range) and by art unit, so a
 * search costs its matches, not a scan of the tables.
 */
import { Effect } from "effect"
import type { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import type { CorpusUnavailable } from "../domain/errors.ts"
import { compareText, heldTable } from "../artifacts/held.ts"
import { num, str, technologyCenterOf, type Query } from "./stored.ts"

export interface ExaminerSearch {
  readonly name?: string | undefined
  readonly artUnit?: string | undefined
  readonly limit: number
}

/** "  smith ,john " → "SMITH, JOHN": upper case, single spaces, the surname comma written as stored. */
export const normalizeExaminerName = (name: string) =>
  name.replace(/[\s\u00a0]+/g, " ").replace(/\s*,\s*/g, ", ").trim().toUpperCase()

/** One examiner as the search answers it. */
export interface ExaminerFound {
  readonly examiner_id: string
  readonly full_name: string
  readonly art_unit: string | null
  readonly technology_center: string | null
}

export interface ExaminersFound {
  readonly count: number
  readonly examiners: ReadonlyArray<ExaminerFound>
}

/** One name variant of `examiners` joined with its examiner's `examiner_statistics` row. */
interface NameVariant {
  readonly examinerId: string
  /** upper(surname), upper(full_name) as DuckDB writes them (its case mapping, not JavaScript's). */
  readonly surname: string | null
  readonly fullName: string | null
  readonly artUnit: string | null
  readonly artUnits: ReadonlyArray<string | null> | null
  readonly applicationCount: number | null
  readonly storedFullName: string | null
  readonly storedArtUnit: string | null
  readonly technologyCenter: string | null
}

export interface ExaminerIndex {
  readonly variants: ReadonlyArray<NameVariant>
  readonly bySurname: ReadonlyMap<string, ReadonlyArray<number>>
  /** Variants with a full name, sorted by it: those starting with a prefix are one run. */
  readonly byFullName: ReadonlyArray<number>
  /** Variants by art unit: their own, any listed one, or their examiner's stored one. */
  readonly byArtUnit: ReadonlyMap<string, ReadonlyArray<number>>
}

const push = (map: Map<string, number[]>, key: string, i: number) => {
  const at = map.get(key)
  if (!at) map.set(key, [i])
  else if (at[at.length - 1] !== i) at.push(i)
}

export const loadExaminerIndex = (query: Query): Effect.Effect<ExaminerIndex, CorpusUnavailable> =>
  Effect.gen(function* () {
    const rows = yield* query(
      `SELECT x.examiner_id, upper(x.surname) AS surname, upper(x.full_name) AS full_name, x.art_unit, x.art_units, x.application_count,
         s.full_name AS stored_full_name, s.art_unit AS stored_art_unit, s.technology_center
       FROM examiners x JOIN examiner_statistics s USING (examiner_id)`,
      [],
      ["examiners", "examiner_statistics"]
    )
    const variants: NameVariant[] = rows.map((r) => ({
      examinerId: String(r.examiner_id),
      surname: str(r.surname),
      fullName: str(r.full_name),
      artUnit: str(r.art_unit),
      artUnits: Array.isArray(r.art_units) ? r.art_units.map(str) : null,
      applicationCount: r.application_count === null ? null : num(r.application_count),
      storedFullName: str(r.stored_full_name),
      storedArtUnit: str(r.stored_art_unit),
      technologyCenter: str(r.technology_center)
    }))
    const bySurname = new Map<string, number[]>()
    const byArtUnit = new Map<string, number[]>()
    variants.forEach((v, i) => {
      if (v.surname !== null) push(bySurname, v.surname, i)
      for (const unit of [v.artUnit, ...(v.artUnits ?? []), v.storedArtUnit]) if (unit !== null) push(byArtUnit, unit, i)
    })
    const byFullName = variants.flatMap((v, i) => (v.fullName === null ? [] : [i])).sort((a, b) => (variants[a].fullName! < variants[b].fullName! ? -1 : variants[a].fullName! > variants[b].fullName! ? 1 : a - b))
    return { variants, bySurname, byFullName, byArtUnit }
  }).pipe(Effect.withSpan("ExaminerIndex.load", { captureStackTrace: false }))

/** Variants whose full name starts with `prefix`: binary search for the first, then the run. */
const fullNamesFrom = (index: ExaminerIndex, prefix: string): number[] => {
  const { byFullName, variants } = index
  let lo = 0
  let hi = byFullName.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (variants[byFullName[mid]].fullName! < prefix) lo = mid + 1
    else hi = mid
  }
  const out: number[] = []
  for (let i = lo; i < byFullName.length && variants[byFullName[i]].fullName!.startsWith(prefix); i++) out.push(byFullName[i])
  return out
}

/** `max(...) DESC` / `ASC` with DuckDB's NULLS LAST. */
const descending = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a)
const ascendingText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : compareText(a, b))
/** max() of 0/1 flags: null when every flag is null (SQL NULL compared). */
const maxFlag = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b))

interface ExaminerMatch {
  readonly examinerId: string
  fullName: string | null
  storedArtUnit: string | null
  technologyCenter: string | null
  variantArtUnit: string | null
  variantCount: number | null
  surnameHit: number | null
  artUnitHit: number | null
  maxCount: number | null
}

/**
 * The search, as the SQL it replaces (kept in test/patent-intel/examiner-index.test.ts as the
 * reference) answered it: variants matching every given condition, grouped by examiner;
 * exact-surname examiners first, then those whose stored art unit is the one asked for, then by
 * their largest application count, name and id.
 */
export const searchExaminers = (index: ExaminerIndex, search: ExaminerSearch): ExaminersFound => {
  const name = search.name === undefined ? "" : normalizeExaminerName(search.name)
  const artUnit = search.artUnit?.trim() ?? ""
  if (!name && !artUnit) return { count: 0, examiners: [] }
  const limit = Math.min(100, Math.max(1, Math.trunc(search.limit)))
  const { variants } = index

  const byName = name ? [...new Set([...(index.bySurname.get(name) ?? []), ...fullNamesFrom(index, name)])] : undefined
  const inUnit = artUnit ? (index.byArtUnit.get(artUnit) ?? []) : undefined
  const candidates = byName && inUnit ? (byName.length <= inUnit.length ? byName : inUnit) : (byName ?? inUnit ?? [])
  const matchesName = (v: NameVariant) => v.surname === name || (v.fullName !== null && v.fullName.startsWith(name))
  const matchesUnit = (v: NameVariant) => v.artUnit === artUnit || (v.artUnits?.includes(artUnit) ?? false) || v.storedArtUnit === artUnit

  const examiners = new Map<string, ExaminerMatch>()
  for (const i of [...candidates].sort((a, b) => a - b)) {
    const v = variants[i]
    if ((name && !matchesName(v)) || (artUnit && !matchesUnit(v))) continue
    const surnameHit = !name || v.surname === null ? null : Number(v.surname === name)
    const artUnitHit = !artUnit || v.storedArtUnit === null ? null : Number(v.storedArtUnit === artUnit)
    const hasCount = v.artUnit !== null && v.applicationCount !== null
    const m = examiners.get(v.examinerId)
    if (!m) {
      examiners.set(v.examinerId, {
        examinerId: v.examinerId,
        fullName: v.storedFullName,
        storedArtUnit: v.storedArtUnit,
        technologyCenter: v.technologyCenter,
        variantArtUnit: hasCount ? v.artUnit : null,
        variantCount: hasCount ? v.applicationCount : null,
        surnameHit,
        artUnitHit,
        maxCount: v.applicationCount
      })
      continue
    }
    // any_value: the first non-null; arg_max: the first variant with the largest count.
    m.fullName ??= v.storedFullName
    m.storedArtUnit ??= v.storedArtUnit
    m.technologyCenter ??= v.technologyCenter
    if (hasCount && (m.variantCount === null || v.applicationCount! > m.variantCount)) {
      m.variantArtUnit = v.artUnit
      m.variantCount = v.applicationCount
    }
    m.surnameHit = maxFlag(m.surnameHit, surnameHit)
    m.artUnitHit = maxFlag(m.artUnitHit, artUnitHit)
    m.maxCount = v.applicationCount === null ? m.maxCount : m.maxCount === null ? v.applicationCount : Math.max(m.maxCount, v.applicationCount)
  }
  const ranked = [...examiners.values()].sort(
    (a, b) =>
      (name ? descending(a.surnameHit, b.surnameHit) : 0) ||
      (artUnit ? descending(a.artUnitHit, b.artUnitHit) : 0) ||
      descending(a.maxCount, b.maxCount) ||
      ascendingText(a.fullName, b.fullName) ||
      ascendingText(a.examinerId, b.examinerId)
  )
  const found = ranked.slice(0, limit).map((m): ExaminerFound => {
    const au = m.storedArtUnit ?? m.variantArtUnit
    return {
      examiner_id: m.examinerId,
      full_name: String(m.fullName),
      art_unit: au,
      technology_center: m.technologyCenter ?? technologyCenterOf(au)
    }
  })
  return { count: found.length, examiners: found }
}

/**
 * GET /patent-intel/examiners over the served version's examiners, read once (at start when
 * `preload`) and kept; a failed read (a version without the tables) is retried by the next search.
 */
export const examinerSearch = (store: ArtifactStore, preload: boolean) =>
  Effect.gen(function* () {
    const index = yield* heldTable(
      store,
      { tables: ["examiners", "examiner_statistics"], preload, describe: (i) => `Examiner index of ${i.variants.length} name variants` },
      loadExaminerIndex(store.query)
    )
    return (search: ExaminerSearch): Effect.Effect<ExaminersFound, CorpusUnavailable> => {
      const name = search.name === undefined ? "" : normalizeExaminerName(search.name)
      // A search for nothing answers no examiners without reading the tables.
      if (!name && !(search.artUnit?.trim() ?? "")) return Effect.succeed({ count: 0, examiners: [] })
      return Effect.map(index, (i) => searchExaminers(i, search))
    }
  })
