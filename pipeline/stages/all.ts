/** Every pipeline stage, in the order they run. Later stages read earlier stages' outputs. */
import { ingestStage } from "../ingest/stage.ts"
import type { Stage } from "./Stage.ts"

export const allStages: ReadonlyArray<Stage> = [ingestStage]
