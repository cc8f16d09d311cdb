/** One document's stems counted and appended to the stage's staging tables `tf` and `docs`. */
import type { DuckDBAppender } from "@duckdb/node-api"
import { tokenizePatentText } from "../../core/text/tokenize.ts"

/**
 * Tokenises `text` and appends its term counts (term, doc, tf) to `tfs` and the document (doc,
 * app_num, len, text_hash) to `docs`; false, appending nothing, when the text has no stem.
 */
export const appendDocument = (tfs: DuckDBAppender, docs: DuckDBAppender, doc: number, app: string, text: string, hash: string) => {
  const counts = new Map<string, number>()
  for (const t of tokenizePatentText(text)) counts.set(t.stem, (counts.get(t.stem) ?? 0) + 1)
  if (counts.size === 0) return false
  let len = 0
  for (const [term, n] of counts) {
    tfs.appendVarchar(term)
    tfs.appendInteger(doc)
    tfs.appendInteger(n)
    tfs.endRow()
    len += n
  }
  docs.appendInteger(doc)
  docs.appendVarchar(app)
  docs.appendInteger(len)
  docs.appendVarchar(hash)
  docs.endRow()
  return true
}
