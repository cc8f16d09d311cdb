// Worker threads start without the parent's module hooks on Node 20, so the TypeScript worker is
// loaded through tsx's scoped import (harmless where hooks are inherited).
import { tsImport } from "tsx/esm/api"

await tsImport("./worker.ts", import.meta.url)
