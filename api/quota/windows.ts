/** Quota windows: UTC calendar days and months. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
export const monthOf = (day: string) => day.slice(0, 7)

export const nextDayStart = (ms: number) => {
  const d = new Date(ms)
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1))
}

export const nextMonthStart = (ms: number) => {
  const d = new Date(ms)
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))
}
