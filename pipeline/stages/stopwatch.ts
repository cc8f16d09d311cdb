/** Seconds since it was started, as a stage's progress lines and notes show them ("12.3 s"). */
export const stopwatch = () => {
  const started = performance.now()
  return () => `${((performance.now() - started) / 1000).toFixed(1)} s`
}
