/** Real patent texts from the sample corpus, for encoder tests: abstracts and ppubs titles. */
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"

const corpus = path.resolve(import.meta.dirname, "../../pipeline/sample-corpus/uspto")

const plain = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&[a-z#0-9]+;/gi, " ").replace(/\s+/g, " ").trim()

/** Every <abstract> of the sample grant and application XML files (a quick regex suffices here). */
export const sampleAbstracts = (): string[] => {
  const out: string[] = []
  for (const folder of ["grants", "applications"]) {
    for (const file of fs.readdirSync(path.join(corpus, folder)).sort()) {
      const xml = zlib.gunzipSync(fs.readFileSync(path.join(corpus, folder, file))).toString("utf8")
      for (const m of xml.matchAll(/<abstract[^>]*>([\s\S]*?)<\/abstract>/g)) {
        const text = plain(m[1])
        if (text.length > 0) out.push(text)
      }
    }
  }
  return out
}

/** Invention titles of the 5,628 ppubs bibliographic records. */
export const sampleTitles = (): string[] => {
  const records = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(corpus, "ppubs/ppubs-biblio.json.gz"))).toString("utf8"))
  return (records as Array<{ inventionTitle?: string }>).map((r) => plain(r.inventionTitle ?? "")).filter((t) => t.length > 0)
}
