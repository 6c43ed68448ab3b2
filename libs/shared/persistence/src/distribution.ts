/**
 * How the schema distributes over a Citus cluster: the one list of the tables that are NOT
 * workspace data. Every other table holds workspace data and is distributed by
 * `DISTRIBUTION_COLUMN`, co-located with every other such table, so that a request (one
 * workspace) runs on one node and foreign keys between workspace tables hold within a shard.
 * `test/e2e/distribution.e2e-spec.ts` checks the migrated schema against it; README, "Scaling".
 */
export const DISTRIBUTION_COLUMN = 'workspace_id';

export type GlobalTableKind =
  /** Replicated to every node: small, read on every request, and the target of foreign keys from workspace tables. */
  | 'reference'
  /** Kept on the coordinator only: bookkeeping of the whole service, never joined with workspace data. */
  | 'local';

export interface GlobalTable {
  readonly kind: GlobalTableKind;
  readonly why: string;
}

/** Tables of the `public` schema by name; a whole schema as `schema.*`. */
export const GLOBAL_TABLES: Readonly<Record<string, GlobalTable>> = {
  workspaces: { kind: 'reference', why: 'the tenants themselves; every workspace table references it' },
  oauth_apps: { kind: 'reference', why: 'OAuth clients are registered for the whole service and granted per workspace' },
  migrations: { kind: 'local', why: "TypeORM's record of applied migrations" },
  webhook_dispatch_cursor: { kind: 'local', why: 'the fan-out position over the outbox of every workspace' },
  request_rate_windows: { kind: 'local', why: 'unlogged request counters keyed by token hash or client address' },
  oauth_sign_in_failures: { kind: 'local', why: 'unlogged sign-in lockout counters keyed by hashed email or address, before any workspace is known' },
  webhook_target_rate_buckets: { kind: 'local', why: 'unlogged per-receiver rate buckets shared by the webhooks of every workspace' },
  webhook_targets: { kind: 'local', why: 'unlogged circuit state and pacing clock per receiver URL, shared by the webhooks of every workspace' },
  'pgboss.*': { kind: 'local', why: "pg-boss's queue of delivery jobs (its own schema and migrations)" },
};
