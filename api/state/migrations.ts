/**
 * The PostgreSQL schema of the shared service state (keys and quota counters), as numbered
 * migrations. A migration is never edited once released: a change is a new entry at the end.
 *
 * `migrate` is what every replica and the key CLI run at start. It is idempotent and safe to run
 * from several processes at once: one transaction takes a transaction-scoped advisory lock, creates
 * `schema_migrations` if needed, applies the versions not recorded there in order, records them,
 * and commits (PostgreSQL DDL is transactional, so a failed migration leaves nothing behind).
 */
import type pg from "pg"

export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "api keys and quota counters",
    sql: `
      CREATE TABLE api_keys (
        handle        text PRIMARY KEY CHECK (handle ~ '^ak_(live|test)_[A-Za-z0-9]{8}$'),
        lineage       text NOT NULL,
        name          text NOT NULL CHECK (btrim(name) <> ''),
        salt          text NOT NULL,
        hash          text NOT NULL,
        test          boolean NOT NULL,
        status        text NOT NULL CHECK (status IN ('active', 'suspended', 'revoked')),
        created_at    timestamptz NOT NULL,
        expires_at    timestamptz NOT NULL,
        daily_limit   bigint NOT NULL CHECK (daily_limit > 0),
        monthly_limit bigint NOT NULL CHECK (monthly_limit > 0),
        allow_ips     text[],
        permissions   text[],
        rotated_to    text REFERENCES api_keys (handle)
      );
      CREATE INDEX api_keys_lineage ON api_keys (lineage);

      -- One row per key lineage and UTC month: the month's count, and the count of the latest
      -- UTC day seen in that month (earlier days of the month no longer matter to any window).
      CREATE TABLE quota_counters (
        lineage     text NOT NULL,
        month       date NOT NULL CHECK (extract(day FROM month) = 1),
        month_count bigint NOT NULL CHECK (month_count >= 0),
        day         date NOT NULL,
        day_count   bigint NOT NULL CHECK (day_count >= 0),
        PRIMARY KEY (lineage, month)
      );
    `
  }
]

/** Arbitrary, fixed: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 7_305_201_001

export class SchemaTooNew extends Error {}

/** Applies the missing migrations; returns the versions applied by this call. */
export const migrate = async (pool: pg.Pool, migrations: ReadonlyArray<Migration> = MIGRATIONS): Promise<ReadonlyArray<number>> => {
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK])
    await client.query(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`)
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations")
    const applied = new Set(rows.map((r) => r.version))
    const newest = Math.max(0, ...migrations.map((m) => m.version))
    const ahead = [...applied].filter((v) => v > newest)
    if (ahead.length > 0) {
      throw new SchemaTooNew(
        `the database schema has migration ${Math.max(...ahead)}, newer than this build knows (${newest}); run the newer build or a database of its own`
      )
    }
    const done: Array<number> = []
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(m.version)) continue
      await client.query(m.sql)
      await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [m.version, m.name])
      done.push(m.version)
    }
    await client.query("COMMIT")
    return done
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw e
  } finally {
    client.release()
  }
}
