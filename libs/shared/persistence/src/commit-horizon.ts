/**
 * The commit horizon, as an SQL expression of type xid8: the id of the oldest transaction still
 * running on the cluster. Every row written by a transaction older than it (`tx_id < COMMIT_HORIZON`,
 * `tx_id` defaulting to `pg_current_xact_id()`) is final: committed, or rolled back and invisible.
 * A reader that walks such rows in `(tx_id, …)` order never sees a row appear behind its position
 * later. The event feed, webhook fan-out and the audit log's sealer all read this way.
 */
export const COMMIT_HORIZON = 'pg_snapshot_xmin(pg_current_snapshot())';
