/**
 * Keys are stored only as HMAC-SHA256(salt, key) with a random per-key salt. A key carries ~190
 * bits of randomness, so a slow KDF (scrypt) would add nothing against guessing while costing tens
 * of milliseconds on every request; the salt defeats precomputed tables across key stores.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

export const newSalt = () => randomBytes(16).toString("hex")

export const hashKey = (salt: string, key: string) => createHmac("sha256", Buffer.from(salt, "hex")).update(key).digest()

/** Constant-time comparison of the presented key against the stored digest. */
export const keyMatches = (salt: string, storedHashHex: string, presented: string) => {
  const stored = Buffer.from(storedHashHex, "hex")
  const candidate = hashKey(salt, presented)
  return stored.length === candidate.length && timingSafeEqual(stored, candidate)
}
