/**
 * Every audit entry as one relation, for tests that read the tables directly: the chain
 * (`audit_log`) and the entries the sealer has not moved there yet (`audit_pending`, `seq` null).
 */
export const ALL_AUDIT_ENTRIES = `(SELECT workspace_id, tx_id, entry_no, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash, seq
    FROM audit_log
  UNION ALL
  SELECT workspace_id, tx_id, entry_no, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash, NULL::bigint
    FROM audit_pending) AS audit_entries`;
