import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { ChainAnchor, ChainedEntry } from '../domain/audit-chain';
import type { AuditEntryView, AuditFilter } from '../domain/audit-entry';

interface RawEntry {
  id: string;
  seq: string;
  occurred_at: Date;
  actor: Record<string, unknown>;
  request_id: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  target: Record<string, unknown>;
  changes: Record<string, unknown> | null;
  prev_hash: string;
  hash: string;
}

/**
 * The audit log's reads and its retention cut. Entries are only ever inserted by the statements
 * that record events (libs/shared/persistence `recordedEvents`, `AuditTrail`); nothing here
 * changes one, and the only delete is the retention cut, which moves the chain's anchor.
 */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** Newest first, `limit + 1` rows after `beforeSeq` (exclusive), filtered in SQL on the indexes. */
  async listEntries(workspaceId: string, filter: AuditFilter, beforeSeq: string | null, limit: number): Promise<AuditEntryView[]> {
    const params: unknown[] = [workspaceId];
    const where = ['workspace_id = $1'];
    const add = (condition: (p: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (filter.actorId !== undefined) add((p) => `actor_id = ${p}`, filter.actorId);
    if (filter.targetId !== undefined) add((p) => `target_id = ${p}`, filter.targetId);
    if (filter.action !== undefined) add((p) => `action = ${p}`, filter.action);
    if (filter.since !== undefined) add((p) => `occurred_at >= ${p}`, filter.since);
    if (filter.until !== undefined) add((p) => `occurred_at < ${p}`, filter.until);
    if (beforeSeq !== null) add((p) => `seq < ${p}::bigint`, beforeSeq);
    params.push(limit + 1);
    const rows = await this.transactions.query<RawEntry>(
      `SELECT id, seq::text AS seq, occurred_at, actor, request_id, action, target_kind, target_id, target, changes, prev_hash, hash
         FROM audit_log WHERE ${where.join(' AND ')} ORDER BY audit_log.seq DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({
      id: row.id,
      seq: row.seq,
      occurredAt: row.occurred_at,
      actor: row.actor,
      requestId: row.request_id,
      action: row.action,
      target: { kind: row.target_kind, id: row.target_id, ids: row.target },
      changes: row.changes,
      prevHash: row.prev_hash,
      hash: row.hash,
    }));
  }

  /** Where the workspace's chain starts (zeros when nothing was ever cut), or null when it has no chain yet. */
  async chainAnchor(workspaceId: string): Promise<(ChainAnchor & { lastSeq: string }) | null> {
    const rows = await this.transactions.query<{ seq: string; hash: string; last_seq: string }>(
      `SELECT anchor_seq::text AS seq, anchor_hash AS hash, last_seq::text AS last_seq FROM audit_chain_heads WHERE workspace_id = $1`,
      [workspaceId],
    );
    return rows[0] ? { seq: rows[0].seq, hash: rows[0].hash, lastSeq: rows[0].last_seq } : null;
  }

  /** A batch of the chain in `seq` order after `afterSeq`, each field as the insert trigger hashed it. */
  async chainBatch(workspaceId: string, afterSeq: string, limit: number): Promise<ChainedEntry[]> {
    return this.transactions.query<ChainedEntry>(
      `SELECT workspace_id::text AS "workspaceId", seq::text AS seq, id::text AS id,
              to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
              actor::text AS actor, actor_id AS "actorId", request_id AS "requestId", action, target_kind AS "targetKind",
              target_id AS "targetId", target::text AS target, changes::text AS changes,
              prev_hash AS "prevHash", content_hash AS "contentHash", hash
         FROM audit_log WHERE workspace_id = $1 AND seq > $2::bigint ORDER BY audit_log.seq LIMIT $3`,
      [workspaceId, afterSeq, limit],
    );
  }

  /**
   * The retention cut: removes the workspace's entries older than `cutoff` and makes the hash of
   * the last one removed the chain's new anchor, so the kept entries still verify. Locks the
   * chain head, so it never races an append.
   */
  async cutBefore(workspaceId: string, cutoff: Date): Promise<number> {
    return this.transactions.run(async () => {
      await this.transactions.query(`SELECT 1 FROM audit_chain_heads WHERE workspace_id = $1 FOR UPDATE`, [workspaceId]);
      const last = await this.transactions.query<{ seq: string; hash: string }>(
        `SELECT seq::text AS seq, hash FROM audit_log WHERE workspace_id = $1 AND occurred_at < $2 ORDER BY audit_log.seq DESC LIMIT 1`,
        [workspaceId, cutoff],
      );
      if (!last[0]) return 0;
      const removed = await this.transactions.query<{ seq: string }>(`DELETE FROM audit_log WHERE workspace_id = $1 AND seq <= $2::bigint RETURNING seq`, [workspaceId, last[0].seq]);
      await this.transactions.query(`UPDATE audit_chain_heads SET anchor_seq = $2::bigint, anchor_hash = $3 WHERE workspace_id = $1`, [workspaceId, last[0].seq, last[0].hash]);
      return removed.length;
    });
  }

  /** The workspaces whose oldest entry is older than `cutoff`: those the retention sweep visits. */
  async workspacesWithEntriesBefore(cutoff: Date): Promise<string[]> {
    const rows = await this.transactions.query<{ workspace_id: string }>(
      `SELECT h.workspace_id FROM audit_chain_heads h
        WHERE EXISTS (SELECT 1 FROM audit_log l WHERE l.workspace_id = h.workspace_id AND l.seq = h.anchor_seq + 1 AND l.occurred_at < $1)`,
      [cutoff],
    );
    return rows.map((row) => row.workspace_id);
  }
}
