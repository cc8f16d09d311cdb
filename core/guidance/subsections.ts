/**
 * The subsection structure of a section's clean text: blocks are separated by blank lines and
 * a heading block ("I. EXAMINER SHOULD SUGGEST CORRECTIONS …", "¶ 7.34.01 …") opens a new
 * subsection. Text before the first heading is the lead-in (heading null).
 */
import { isHeading } from "./rules.ts"

export interface Subsection {
  readonly heading: string | null
  readonly text: string
}

export const subsectionsOf = (content: string): Subsection[] => {
  const out: Array<{ heading: string | null; blocks: string[] }> = []
  for (const raw of content.split(/\n{2,}/)) {
    const block = raw.trim()
    if (block === "") continue
    if (isHeading(block) && !block.includes("\n")) out.push({ heading: block, blocks: [] })
    else if (out.length === 0) out.push({ heading: null, blocks: [block] })
    else out[out.length - 1].blocks.push(block)
  }
  return out.map((s) => ({ heading: s.heading, text: s.blocks.join("\n\n") }))
}
