/**
 * One USPTO document (already split out of its weekly file) as a small element tree, plus the
 * few lookups the field extractors need. A tree per document is fine: documents are parsed one
 * at a time, and the tree lets each format's extractor read fields by path instead of running
 * a state machine per DTD version.
 */
import { SaxesParser } from "saxes"
import { resolveEntity } from "./entities.ts"

export interface XmlElement {
  readonly name: string
  readonly attrs: Readonly<Record<string, string>>
  readonly children: Array<XmlElement | string>
}

export class XmlSyntaxError extends Error {}

/** Parses one XML document; throws XmlSyntaxError on malformed markup. */
export const parseXml = (text: string): XmlElement => {
  const parser = new SaxesParser({ position: true })
  const known = parser.ENTITIES
  parser.ENTITIES = new Proxy(known, {
    get: (target, key) => (typeof key === "string" ? target[key] ?? resolveEntity(key) : undefined)
  })
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  parser.on("error", (e) => {
    throw new XmlSyntaxError(e.message)
  })
  parser.on("opentag", (tag) => {
    const el: XmlElement = { name: tag.name, attrs: tag.attributes as Record<string, string>, children: [] }
    const parent = stack[stack.length - 1]
    if (parent) parent.children.push(el)
    else root = el
    stack.push(el)
  })
  parser.on("closetag", () => {
    stack.pop()
  })
  const onText = (t: string) => {
    const parent = stack[stack.length - 1]
    if (parent) parent.children.push(t)
  }
  parser.on("text", onText)
  parser.on("cdata", onText)
  parser.write(text).close()
  if (!root) throw new XmlSyntaxError("no root element")
  return root
}

const isElement = (n: XmlElement | string): n is XmlElement => typeof n !== "string"

export const elements = (el: XmlElement): XmlElement[] => el.children.filter(isElement)

// The lookups below walk `children` directly (no filtered copies): they run many times per document.

/** Direct children with the given name. */
export const childrenNamed = (el: XmlElement | undefined, name: string): XmlElement[] => {
  const out: XmlElement[] = []
  if (el) for (const c of el.children) if (typeof c !== "string" && c.name === name) out.push(c)
  return out
}

const firstChildNamed = (el: XmlElement, name: string): XmlElement | undefined => {
  for (const c of el.children) if (typeof c !== "string" && c.name === name) return c
  return undefined
}

const steps = new Map<string, string[]>()
const stepsOf = (path: string) => {
  let s = steps.get(path)
  if (!s) steps.set(path, (s = path.split("/")))
  return s
}

/** Follows a path of direct child names ("a/b/c"); the first match at each step. */
export const at = (el: XmlElement | undefined, path: string): XmlElement | undefined => {
  let cur = el
  for (const step of stepsOf(path)) {
    if (!cur) return undefined
    cur = firstChildNamed(cur, step)
  }
  return cur
}

/** All elements along a path of child names, fanning out at every step. */
export const allAt = (el: XmlElement | undefined, path: string): XmlElement[] => {
  let level: XmlElement[] = el ? [el] : []
  for (const step of stepsOf(path)) level = level.flatMap((e) => childrenNamed(e, step))
  return level
}

/** First descendant (depth first, document order) with the given name. */
export const find = (el: XmlElement | undefined, name: string): XmlElement | undefined => {
  if (!el) return undefined
  for (const c of el.children) {
    if (typeof c === "string") continue
    if (c.name === name) return c
    const deep = find(c, name)
    if (deep) return deep
  }
  return undefined
}

/** All descendants with the given name, not looking inside a match. */
export const findAll = (el: XmlElement | undefined, name: string, out: XmlElement[] = []): XmlElement[] => {
  if (!el) return out
  for (const c of el.children) {
    if (typeof c === "string") continue
    if (c.name === name) out.push(c)
    else findAll(c, name, out)
  }
  return out
}

const appendRawText = (el: XmlElement, out: string[]) => {
  for (const c of el.children) {
    if (typeof c === "string") out.push(c)
    else appendRawText(c, out)
  }
}

/** Raw concatenated text of an element (no spacing rules; for short fields such as numbers). */
export const rawText = (el: XmlElement | undefined): string => {
  if (!el) return ""
  const out: string[] = []
  appendRawText(el, out)
  return out.join("")
}

/** Trimmed, whitespace-collapsed text at a path, or undefined when absent or empty. */
export const textAt = (el: XmlElement | undefined, path: string): string | undefined => textOf(at(el, path))

/** Trimmed, whitespace-collapsed text of an element, or undefined when absent or empty. */
export const textOf = (el: XmlElement | undefined): string | undefined => {
  const t = rawText(el).replace(/\s+/g, " ").trim()
  return t === "" ? undefined : t
}
