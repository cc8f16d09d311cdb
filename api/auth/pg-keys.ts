/**
 * The shared key store: table `api_keys` in PostgreSQL (schema in api/state/migrations.ts). Every
 * lookup reads the row, so a key created, suspended, revoked or rotated from any machine is in
 * force on the next request of every replica. Only salted hashes are stored.
 */
import { randomUUID } from "node:crypto"
import type pg from "pg"
import { type KeyOptions, mint, rotationOf, unknownHandle, validateOptions } from "./issue.ts"
import type { KeyBackend } from "./key-backend.ts"
import type { KeyRecord } from "./key-file.ts"

interface KeyRow {
  readonly handle: string
  readonly lineage: string
  readonly name: string
  readonly salt: string
  readonly hash: string
  readonly test: boolean
  readonly status: KeyRecord["status"]
  readonly created_at: Date
  readonly expires_at: Date
  readonly daily_limit: string
  readonly monthly_limit: string
  readonly allow_ips: Array<string> | null
  readonly permissions: Array<string> | null
  readonly rotated_to: string | null
}

const COLUMNS =
  "handle, lineage, name, salt, hash, test, status, created_at, expires_at, daily_limit, monthly_limit, allow_ips, permissions, rotated_to"

const toRecord = (r: KeyRow): KeyRecord => ({
  handle: r.handle,
  lineage: r.lineage,
  name: r.name,
  salt: r.salt,
  hash: r.hash,
  test: r.test,
  status: r.status,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
  daily: Number(r.daily_limit),
  monthly: Number(r.monthly_limit),
  allowIps: r.allow_ips,
  permissions: r.permissions,
  ...(r.rotated_to ? { rotatedTo: r.rotated_to } : {})
})

const INSERT = `INSERT INTO api_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, NULL)`

const insertParams = (k: KeyRecord) => [
  k.handle,
  k.lineage,
  k.name,
  k.salt,
  k.hash,
  k.test,
  k.status,
  k.createdAt,
  k.expiresAt,
  k.daily,
  k.monthly,
  k.allowIps,
  k.permissions
]

const UNIQUE_VIOLATION = "23505"
const isHandleClash = (e: unknown) => (e as { code?: string }).code === UNIQUE_VIOLATION

/** A handle is 8 random characters after the prefix: a clash is rare, and answered by minting again. */
const MINT_ATTEMPTS = 5

export const pgKeys = (pool: pg.Pool): KeyBackend => {
  const inTransaction = async <A>(work: (client: pg.PoolClient) => Promise<A>): Promise<A> => {
    const client = await pool.connect()
    try {
      await client.query("BEGIN")
      const result = await work(client)
      await client.query("COMMIT")
      return result
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined)
      throw e
    } finally {
      client.release()
    }
  }

  /**
   * Mints and inserts; a handle clash (unique violation) mints again. Inside a transaction the
   * insert runs under a savepoint, so a clash does not abort the transaction.
   */
  const insertMinted = async (client: pg.PoolClient | pg.Pool, inTx: boolean, options: KeyOptions, lineage: string, nowMs: number) => {
    const savepoint = inTx ? "mint" : undefined
    for (let attempt = 1; ; attempt++) {
      const { key, record } = mint(options, lineage, new Set(), nowMs)
      try {
        if (savepoint) await client.query(`SAVEPOINT ${savepoint}`)
        await client.query(INSERT, insertParams(record))
        if (savepoint) await client.query(`RELEASE SAVEPOINT ${savepoint}`)
        return { key, record }
      } catch (e) {
        if (savepoint) await client.query(`ROLLBACK TO SAVEPOINT ${savepoint}`)
        if (!isHandleClash(e) || attempt >= MINT_ATTEMPTS) throw e
      }
    }
  }

  return {
    kind: "postgresql",
    findByHandle: async (handle) => {
      const { rows } = await pool.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE handle = $1`, [handle])
      return rows[0] ? toRecord(rows[0]) : undefined
    },
    create: async (options, nowMs) => {
      validateOptions(options)
      return (await insertMinted(pool, false, options, randomUUID(), nowMs)).key
    },
    setStatus: async (handle, status) => {
      const { rowCount } = await pool.query("UPDATE api_keys SET status = $2 WHERE handle = $1", [handle, status])
      if (rowCount === 0) throw unknownHandle(handle)
    },
    rotate: (handle, nowMs) =>
      inTransaction(async (client) => {
        // The row lock makes two concurrent rotations of one key produce one replacement, not two.
        const { rows } = await client.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE handle = $1 FOR UPDATE`, [handle])
        if (!rows[0]) throw unknownHandle(handle)
        const old = toRecord(rows[0])
        const { key, record } = await insertMinted(client, true, rotationOf(old), old.lineage, nowMs)
        await client.query("UPDATE api_keys SET status = 'revoked', rotated_to = $2 WHERE handle = $1", [handle, record.handle])
        return key
      }),
    list: async () => {
      const { rows } = await pool.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, handle`)
      return rows.map(toRecord)
    }
  }
}
