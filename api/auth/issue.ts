/**
 * Issuing and managing keys: the rules shared by both stores (validation, minting, rotation) and
 * the file store's operations on STATE_DIR/keys.json. The PostgreSQL store is api/auth/pg-keys.ts;
 * KeyStore picks one of them.
 */
import { randomUUID } from "node:crypto"
import { generateKey, handleOf } from "./key-shape.ts"
import { hashKey, newSalt } from "./key-hash.ts"
import { type KeyRecord, readKeyFile, updateKeyFile } from "./key-file.ts"
import { isValidRange } from "./ip-allowlist.ts"
import { isPermission } from "./permissions.ts"

export interface KeyOptions {
  readonly name: string
  readonly daily?: number
  readonly monthly?: number
  readonly expiresDays?: number
  readonly test?: boolean
  readonly allowIps?: ReadonlyArray<string> | null
  readonly permissions?: ReadonlyArray<string> | null
}

export const DEFAULT_DAILY = 1000
export const DEFAULT_MONTHLY = 30000
export const DEFAULT_EXPIRY_DAYS = 90

/**
 * Sane bounds for the numbers a key carries: far above any agreed plan (the largest upgrade in
 * SPEC part 8 is 100,000 a day), far below where a counter or a date could misbehave.
 */
export const LIMIT_BOUNDS = {
  "--daily": { min: 1, max: 100_000_000 },
  "--monthly": { min: 1, max: 3_000_000_000 },
  "--expires-days": { min: 1, max: 3650 }
} as const
export type NumericFlag = keyof typeof LIMIT_BOUNDS

const DAY_MS = 86_400_000

/** A request to issue or change a key that cannot be carried out as asked; the message names the field and the rule. */
export class KeyRequestInvalid extends Error {}

export const boundsRule = (flag: NumericFlag) => `a whole number from ${LIMIT_BOUNDS[flag].min} to ${LIMIT_BOUNDS[flag].max}`

export const checkNumber = (flag: NumericFlag, v: number | undefined) => {
  if (v === undefined) return
  const { min, max } = LIMIT_BOUNDS[flag]
  if (!Number.isSafeInteger(v) || v < min || v > max) throw new KeyRequestInvalid(`${flag} must be ${boundsRule(flag)} (got ${v})`)
}

export const validateOptions = (o: KeyOptions) => {
  const bad = (m: string) => {
    throw new KeyRequestInvalid(m)
  }
  if (!o.name.trim()) bad("--name must not be empty")
  if (o.name.length > 200) bad("--name must be at most 200 characters")
  checkNumber("--daily", o.daily)
  checkNumber("--monthly", o.monthly)
  checkNumber("--expires-days", o.expiresDays)
  for (const cidr of o.allowIps ?? []) if (!isValidRange(cidr)) bad(`--allow-ip: ${cidr} is not an IPv4/IPv6 address or CIDR range`)
  for (const p of o.permissions ?? []) if (!isPermission(p)) bad(`--permissions: ${p} is not a permission name`)
}

/** A fresh key and its record (salted hash only); `taken` holds the handles already in use. */
export const mint = (o: KeyOptions, lineage: string, taken: ReadonlySet<string>, nowMs: number) => {
  let key = generateKey(o.test ?? false)
  while (taken.has(handleOf(key))) key = generateKey(o.test ?? false)
  const salt = newSalt()
  const record: KeyRecord = {
    handle: handleOf(key),
    lineage,
    name: o.name,
    salt,
    hash: hashKey(salt, key).toString("hex"),
    test: o.test ?? false,
    status: "active",
    createdAt: new Date(nowMs).toISOString(),
    expiresAt: new Date(nowMs + (o.expiresDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS).toISOString(),
    daily: o.daily ?? DEFAULT_DAILY,
    monthly: o.monthly ?? DEFAULT_MONTHLY,
    allowIps: o.allowIps && o.allowIps.length > 0 ? [...o.allowIps] : null,
    permissions: o.permissions && o.permissions.length > 0 ? [...o.permissions] : null
  }
  return { key, record }
}

/** What a rotation carries over: name, limits, allowlist, permissions and the original term. */
export const rotationOf = (old: KeyRecord): KeyOptions => {
  if (old.status === "revoked") throw new KeyRequestInvalid(`key ${old.handle} is revoked; create a new one instead`)
  const term = Math.max(1, Math.round((Date.parse(old.expiresAt) - Date.parse(old.createdAt)) / DAY_MS))
  return { name: old.name, daily: old.daily, monthly: old.monthly, expiresDays: term, test: old.test, allowIps: old.allowIps, permissions: old.permissions }
}

export const unknownHandle = (handle: string) => new KeyRequestInvalid(`no key with handle ${handle}`)

/** Creates a key; returns the raw key, which exists nowhere else afterwards. */
export const createKey = async (stateDir: string, o: KeyOptions, nowMs = Date.now()): Promise<string> => {
  validateOptions(o)
  return updateKeyFile(stateDir, (file) => {
    const { key, record } = mint(o, randomUUID(), new Set(file.keys.map((k) => k.handle)), nowMs)
    return { file: { ...file, keys: [...file.keys, record] }, result: key }
  })
}

const findOrThrow = (keys: ReadonlyArray<KeyRecord>, handle: string) => {
  const record = keys.find((k) => k.handle === handle)
  if (!record) throw unknownHandle(handle)
  return record
}

export const setStatus = (stateDir: string, handle: string, status: "suspended" | "revoked" | "active") =>
  updateKeyFile(stateDir, (file) => {
    findOrThrow(file.keys, handle)
    return { file: { ...file, keys: file.keys.map((k) => (k.handle === handle ? { ...k, status } : k)) }, result: undefined }
  })

/** Replaces a key: same name, limits, allowlist, permissions and quota lineage; fresh expiry; the old key is revoked. */
export const rotateKey = (stateDir: string, handle: string, nowMs = Date.now()) =>
  updateKeyFile(stateDir, (file) => {
    const old = findOrThrow(file.keys, handle)
    const { key, record } = mint(rotationOf(old), old.lineage, new Set(file.keys.map((k) => k.handle)), nowMs)
    const keys = file.keys.map((k) => (k.handle === handle ? { ...k, status: "revoked" as const, rotatedTo: record.handle } : k))
    return { file: { ...file, keys: [...keys, record] }, result: key }
  })

export const listKeys = async (stateDir: string) => (await readKeyFile(stateDir)).keys
