/** Every pipeline stage, in the order they run. Later stages read earlier stages' outputs. */
import { atlasStage } from "../atlas/stage.ts"
import { documentsStage } from "../documents/stage.ts"
import { embedStage } from "../embed/stage.ts"
import { encoderStage } from "../encoder/stage.ts"
import { guidanceStage } from "../guidance/stage.ts"
import { ingestStage } from "../ingest/stage.ts"
import { lexicalStage } from "../lexical/stage.ts"
import { mapStage } from "../map/stage.ts"
import { pageImagesStage } from "../page-images/stage.ts"
import { prosecutionStage } from "../prosecution/stage.ts"
import { servingStage } from "../serving/stage.ts"
import type { Stage } from "./Stage.ts"

export const allStages: ReadonlyArray<Stage> = [ingestStage, encoderStage, embedStage, mapStage, atlasStage, lexicalStage, documentsStage, prosecutionStage, servingStage, guidanceStage, pageImagesStage]
