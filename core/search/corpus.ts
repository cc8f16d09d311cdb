/**
 * The searchable corpus held in memory once per artifact version: one integer key per
 * application (the vector index's key; applications without a vector get keys after the last
 * one), and typed arrays that answer every filter without touching DuckDB per request.
 *
 *   appNums[key]          application number
 *   filed[key]            filing date as YYYYMMDD (0 = unknown)
 *   country[key]          index into `countries`
 *   cpc CSR               key → CPC subclass ids (index into `subclasses`), from cpc_assignments
 *
 * Loaded through a `Rows` function (SQL → row objects) so the API (ArtifactStore) and the
 * benchmark (its own DuckDB) share it.
 */
export type Rows = (sql: string) => Promise<ReadonlyArray<Record<string, unknown>>>

export interface SearchCorpus {
  /** Keys 0 … size-1. */
  readonly size: number
  /** Keys below this have a vector in the index. */
  readonly vectorCount: number
  readonly appNums: ReadonlyArray<string>
  readonly keyOf: ReadonlyMap<string, number>
  readonly filed: Int32Array
  readonly country: Uint16Array
  readonly countries: ReadonlyArray<string>
  readonly cpcOffsets: Uint32Array
  readonly cpcIds: Uint16Array
  readonly subclasses: ReadonlyArray<string>
}

const interned = (table: string[], index: Map<string, number>, value: string) => {
  let id = index.get(value)
  if (id === undefined) {
    id = table.length
    table.push(value)
    index.set(value, id)
  }
  return id
}

export const loadSearchCorpus = async (rows: Rows): Promise<SearchCorpus> => {
  const appNums: string[] = []
  const keyOf = new Map<string, number>()
  for (const r of await rows(`SELECT key, app_num FROM vectors ORDER BY key`)) {
    const key = Number(r.key)
    appNums[key] = String(r.app_num)
    keyOf.set(String(r.app_num), key)
  }
  const vectorCount = appNums.length
  const apps = await rows(`
    SELECT app_num, coalesce(year(filing_date) * 10000 + month(filing_date) * 100 + day(filing_date), 0)::INTEGER AS filed,
           upper(coalesce(country, '')) AS country
    FROM applications`)
  for (const r of apps) {
    const app = String(r.app_num)
    if (!keyOf.has(app)) {
      keyOf.set(app, appNums.length)
      appNums.push(app)
    }
  }
  const size = appNums.length
  const filed = new Int32Array(size)
  const country = new Uint16Array(size)
  const countries: string[] = [""]
  const countryIndex = new Map([["", 0]])
  for (const r of apps) {
    const key = keyOf.get(String(r.app_num))!
    filed[key] = Number(r.filed)
    country[key] = interned(countries, countryIndex, String(r.country))
  }
  const subclasses: string[] = []
  const subclassIndex = new Map<string, number>()
  const perKey: number[][] = []
  for (const r of await rows(`SELECT DISTINCT app_num, upper(subclass) AS subclass FROM cpc_assignments WHERE subclass IS NOT NULL`)) {
    const key = keyOf.get(String(r.app_num))
    if (key === undefined) continue
    ;(perKey[key] ??= []).push(interned(subclasses, subclassIndex, String(r.subclass)))
  }
  const cpcOffsets = new Uint32Array(size + 1)
  for (let k = 0; k < size; k++) cpcOffsets[k + 1] = cpcOffsets[k] + (perKey[k]?.length ?? 0)
  const cpcIds = new Uint16Array(cpcOffsets[size])
  for (let k = 0; k < size; k++) if (perKey[k]) cpcIds.set(perKey[k], cpcOffsets[k])
  return { size, vectorCount, appNums, keyOf, filed, country, countries, cpcOffsets, cpcIds, subclasses }
}
