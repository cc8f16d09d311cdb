/** Rewrites catalog.duckdb of a version folder (after the folder was moved): `write-catalog.ts <versionDir>`. */
import * as path from "node:path"
import { writeCatalog } from "../../core/artifacts/catalog.ts"

const dir = process.argv[2]
if (!dir) {
  process.stderr.write("usage: write-catalog.ts <versionDir>\n")
  process.exit(2)
}
process.stdout.write(`${await writeCatalog(path.resolve(dir))}\n`)
