/** Vitest global setup (the sample-artifacts build is wired in once the readers land). */
export default async function setup() {
  return async () => {}
}
