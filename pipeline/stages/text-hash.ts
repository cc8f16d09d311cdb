/**
 * What decides whether a stage's earlier per-document work still applies on a nightly build: 64
 * bits of the text's SHA-256 (embed: the vector of title, abstract and first claim; lexical: the
 * term counts of title and abstract).
 */
import { createHash } from "node:crypto"

export const textHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16)
