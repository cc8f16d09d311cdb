/**
 * Vitest global setup. Heavy shared fixtures (a built sample artifact set) are prepared here
 * once per run so test files can share them; see test/support/fixtures.ts.
 */
export default async function setup() {
  return async () => {}
}
