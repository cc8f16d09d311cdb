/**
 * The guidance citation graph of one corpus (MPEP or EPO): one edge per (citing, cited) pair
 * weighted by how many times the citing section refers to the cited one, typed by how the two
 * relate, and flagged bidirectional when the cited section cites back. A reference to a
 * section the corpus does not hold goes to its nearest held ancestor ("2173.05(e)(1)" →
 * "2173.05(e)"); one with no held ancestor is dropped and counted.
 */

export type GuidanceCorpus = "mpep" | "epo"

export interface GraphSection {
  readonly sectionId: string
  readonly crossRefs: ReadonlyArray<string>
  /** A reserved / moved section: its references say where the text went. */
  readonly redirect: boolean
}

export interface GuidanceEdge {
  readonly source: string
  readonly target: string
  readonly weight: number
  readonly type: "redirect" | "hierarchy" | "same-chapter" | "cross-chapter"
  readonly bidirectional: boolean
}

export interface GuidanceNode {
  readonly nodeId: string
  readonly sectionId: string
  readonly inDegree: number
  readonly outDegree: number
  readonly isHub: boolean
}

/** Node ids carry the corpus: "mpep-2173.05(e)", "epo-G-VII-5.1". */
export const nodeIdOf = (corpus: GuidanceCorpus, sectionId: string) => `${corpus}-${sectionId}`

/** Share of nodes (by total degree, highest first) flagged as hubs. */
export const HUB_PERCENTILE = 0.99

/** The id one level up: 2173.05(e) → 2173.05 → 2173; G-VII-5.1 → G-VII-5 → G-VII. */
export const parentIdOf = (corpus: GuidanceCorpus, id: string): string | undefined => {
  if (corpus === "mpep") {
    if (/\)$/.test(id)) return id.replace(/\([^()]*\)$/, "")
    if (id.includes(".")) return id.replace(/\.\d+$/, "")
    return undefined
  }
  const parts = id.split("-")
  if (parts.length === 3 && parts[2].includes(".")) return `${parts[0]}-${parts[1]}-${parts[2].replace(/\.\d+$/, "")}`
  if (parts.length === 3 || (parts[0] === "General" && parts.length === 2)) return parts.slice(0, -1).join("-")
  return undefined
}

const chapterOf = (corpus: GuidanceCorpus, id: string) =>
  corpus === "mpep" ? String(Math.floor(Number(/^\d+/.exec(id)?.[0] ?? 0) / 100)) : id.split("-").slice(0, 2).join("-")

const isAncestor = (corpus: GuidanceCorpus, a: string, b: string) => {
  for (let p = parentIdOf(corpus, b); p; p = parentIdOf(corpus, p)) if (p === a) return true
  return false
}

export interface GraphBuild {
  readonly edges: GuidanceEdge[]
  readonly nodes: GuidanceNode[]
  readonly unresolved: number
  readonly hubThreshold: number
}

export const buildGuidanceGraph = (corpus: GuidanceCorpus, sections: ReadonlyArray<GraphSection>): GraphBuild => {
  const held = new Set(sections.map((s) => s.sectionId))
  const resolve = (id: string): string | undefined => {
    for (let c: string | undefined = id; c; c = parentIdOf(corpus, c)) if (held.has(c)) return c
    return undefined
  }
  const weights = new Map<string, Map<string, number>>()
  const redirects = new Set(sections.filter((s) => s.redirect).map((s) => s.sectionId))
  let unresolved = 0
  for (const s of sections) {
    for (const ref of s.crossRefs) {
      const target = resolve(ref)
      if (!target) {
        unresolved++
        continue
      }
      if (target === s.sectionId) continue
      const out = weights.get(s.sectionId) ?? new Map<string, number>()
      out.set(target, (out.get(target) ?? 0) + 1)
      weights.set(s.sectionId, out)
    }
  }
  const has = (a: string, b: string) => weights.get(a)?.has(b) ?? false
  const edges: GuidanceEdge[] = []
  const inDeg = new Map<string, number>()
  for (const [source, out] of weights) {
    for (const [target, weight] of out) {
      const type = redirects.has(source)
        ? "redirect"
        : isAncestor(corpus, source, target) || isAncestor(corpus, target, source)
        ? "hierarchy"
        : chapterOf(corpus, source) === chapterOf(corpus, target)
        ? "same-chapter"
        : "cross-chapter"
      edges.push({ source: nodeIdOf(corpus, source), target: nodeIdOf(corpus, target), weight, type, bidirectional: has(target, source) })
      inDeg.set(target, (inDeg.get(target) ?? 0) + 1)
    }
  }
  const degrees = sections.map((s) => ({ id: s.sectionId, inDegree: inDeg.get(s.sectionId) ?? 0, outDegree: weights.get(s.sectionId)?.size ?? 0 }))
  // Nearest-rank percentile over the nodes that have any edge: isolated sections would make
  // every cited node a "hub" in a sparse graph.
  const connected = degrees.map((d) => d.inDegree + d.outDegree).filter((d) => d > 0).sort((a, b) => a - b)
  const hubThreshold = connected.length === 0 ? Infinity : connected[Math.min(connected.length - 1, Math.ceil(HUB_PERCENTILE * connected.length) - 1)]
  const nodes = degrees.map((d) => ({
    nodeId: nodeIdOf(corpus, d.id),
    sectionId: d.id,
    inDegree: d.inDegree,
    outDegree: d.outDegree,
    isHub: d.inDegree + d.outDegree > 0 && d.inDegree + d.outDegree >= hubThreshold
  }))
  return { edges, nodes, unresolved, hubThreshold: Number.isFinite(hubThreshold) ? hubThreshold : 0 }
}
