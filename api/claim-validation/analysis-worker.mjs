// Entry of an analysis worker thread. Worker threads do not always inherit the host's TypeScript
// loader (vitest's fork pool has none), so the tasks are loaded through tsx's own import.
import { tsImport } from "tsx/esm/api"

const tasks = await tsImport("./analysis-tasks.ts", import.meta.url)
export const antecedent = tasks.antecedent
export const supportChart = tasks.supportChart
export const gradeTerms = tasks.gradeTerms
