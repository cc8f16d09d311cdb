/**
 * Natural order of guidance ids: numbers compare as numbers, so 7.34.10 follows 7.34.9,
 * G-VII-10 follows G-VII-9 and 2173.05(e) follows 2173.05(d).
 */
const ROMAN: Record<string, number> = { I: 1, V: 5, X: 10, L: 50 }
const romanValue = (s: string) => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN[s[i]] ?? 0
    n += i + 1 < s.length && v < (ROMAN[s[i + 1]] ?? 0) ? -v : v
  }
  return n
}

const parts = (id: string) =>
  id.match(/\d+|[A-Za-z]+/g)?.map((p) => (/^\d+$/.test(p) ? Number(p) : /^[IVXL]+$/.test(p) && p.length <= 6 ? romanValue(p) + 0.5 : p)) ?? []

export const compareIds = (a: string, b: string): number => {
  const pa = parts(a)
  const pb = parts(b)
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]
    const y = pb[i]
    if (x === y) continue
    if (typeof x === "number" && typeof y === "number") return x - y
    return String(x).localeCompare(String(y))
  }
  return pa.length - pb.length || a.localeCompare(b)
}
