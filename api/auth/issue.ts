/** Issuing and managing keys: what the key CLI and `make serve`'s demo key call. */
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

const DAY_MS = 86_400_000

export const validateOptions = (o: KeyOptions) => {
  const bad = (m: string) => {
    throw new Error(m)
  }
  if (!o.name.trim()) bad("--name must not be empty")
  for (const [flag, v] of [["--daily", o.daily], ["--monthly", o.monthly], ["--expires-days", o.expiresDays]] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) bad(`${flag} must be a positive integer`)
  }
  for (const cidr of o.allowIps ?? []) if (!isValidRange(cidr)) bad(`--allow-ip: ${cidr} is not an IPv4/IPv6 address or CIDR range`)
  for (const p of o.permissions ?? []) if (!isPermission(p)) bad(`--permissions: ${p} is not a permission name`)
}

const mint = (o: KeyOptions, lineage: string, taken: ReadonlySet<string>, nowMs: number) => {
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
  if (!record) throw new Error(`no key with handle ${handle}`)
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
    if (old.status === "revoked") throw new Error(`key ${handle} is revoked; create a new one instead`)
    const term = Math.max(1, Math.round((Date.parse(old.expiresAt) - Date.parse(old.createdAt)) / DAY_MS))
    const { key, record } = mint(
      { name: old.name, daily: old.daily, monthly: old.monthly, expiresDays: term, test: old.test, allowIps: old.allowIps, permissions: old.permissions },
      old.lineage,
      new Set(file.keys.map((k) => k.handle)),
      nowMs
    )
    const keys = file.keys.map((k) => (k.handle === handle ? { ...k, status: "revoked" as const, rotatedTo: record.handle } : k))
    return { file: { ...file, keys: [...keys, record] }, result: key }
  })

export const listKeys = async (stateDir: string) => (await readKeyFile(stateDir)).keys
