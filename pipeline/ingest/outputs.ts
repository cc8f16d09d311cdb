/** The published tables ingest writes (tables/<name>.parquet), as handles for later stages. */
import { output } from "../stages/outputs.ts"

export const ingestTable = (name: string) => output("ingest", `tables/${name}.parquet`)
