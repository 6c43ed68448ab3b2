import { Injectable } from '@nestjs/common';
import { arrayLiteral, COMMIT_HORIZON, TransactionRunner } from '@workbase/shared/persistence';
import type { ChainLink, EntryToSeal, Seal, StoredEntry } from '../domain/audit-chain';
import type { AuditEntryView, AuditFilter, AuditPosition } from '../domain/audit-entry';

interface RawEntry {
  workspace_id: string;
  tx_id: string;
  entry_no: string;
  id: string;
  seq: string | null;
  occurred_at: Date;
  actor: Record<string, unknown>;
  actor_id: string | null;
  request_id: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  target: Record<string, unknown>;
  changes: Record<string, unknown> | null;
  content_hash: string;
  prev_hash: string | null;
  hash: string | null;
}

const CONTENT_COLUMNS = `workspace_id, tx_id::text AS tx_id, entry_no::text AS entry_no, id, occurred_at, actor, actor_id, request_id,
  action, target_kind, target_id, target, changes, content_hash`;

/** An entry of the chain (`audit_log`). */
const ENTRY_COLUMNS = `${CONTENT_COLUMNS}, seq::text AS seq, prev_hash, hash`;

/** An entry not sealed yet (`audit_pending`), in the same shape. */
const PENDING_COLUMNS = `${CONTENT_COLUMNS}, NULL::text AS seq, NULL::text AS prev_hash, NULL::text AS hash`;

/** One sealer at a time on the cluster: a transaction-level advisory lock (safe behind a transaction pooler). */
const SEALER_LOCK = 7_406_021_313; // next to the migration (…311) and cluster-owner (…312) keys

function stored(row: RawEntry): StoredEntry {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    occurredAt: row.occurred_at,
    actor: row.actor,
    actorId: row.actor_id,
    requestId: row.request_id,
    action: row.action,
    targetKind: row.target_kind,
    targetId: row.target_id,
    target: row.target,
    changes: row.changes,
    contentHash: row.content_hash,
    seq: row.seq,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * The audit log's reads, the sealer's links and the retention cut. Entries are only ever inserted
 * into `audit_pending`, by the statements that record changes (libs/shared/persistence
 * `auditInsert`); the sealer moves them into `audit_log` with their chain fields, where they are
 * never changed, and the only delete there is the retention cut, which moves the anchor. A read
 * that shows both tables reads them in one statement, so an entry the sealer moves meanwhile is
 * seen once.
 */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** Newest first, `limit + 1` rows before `before` (exclusive), filtered in SQL on the indexes. */
  async listEntries(workspaceId: string, filter: AuditFilter, before: AuditPosition | null, limit: number): Promise<AuditEntryView[]> {
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
    if (before !== null) {
      params.push(before.txId, before.entryNo);
      where.push(`(tx_id, entry_no) < ($${params.length - 1}::xid8, $${params.length}::bigint)`);
    }
    params.push(limit + 1);
    // Every entry not sealed yet comes after every sealed one in the chain's order (the sealer
    // seals in that order, behind the horizon), so the newest are pending ones, then the chain.
    const conditions = where.join(' AND ');
    const rows = await this.transactions.query<RawEntry>(
      `SELECT * FROM (
         (SELECT ${PENDING_COLUMNS} FROM audit_pending WHERE ${conditions} ORDER BY audit_pending.tx_id DESC, audit_pending.entry_no DESC LIMIT $${params.length})
         UNION ALL
         (SELECT ${ENTRY_COLUMNS} FROM audit_log WHERE ${conditions} ORDER BY audit_log.tx_id DESC, audit_log.entry_no DESC LIMIT $${params.length})
       ) entries ORDER BY entries.tx_id::xid8 DESC, entries.entry_no::bigint DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({
      id: row.id,
      position: { txId: row.tx_id, entryNo: row.entry_no },
      seq: row.seq,
      occurredAt: row.occurred_at,
      actor: row.actor,
      requestId: row.request_id,
      action: row.action,
      target: { kind: row.target_kind, id: row.target_id, ids: row.target },
      changes: row.changes,
      contentHash: row.content_hash,
      prevHash: row.prev_hash,
      hash: row.hash,
    }));
  }

  /** The workspace's chain head: its anchor and its last link (the anchor's genesis when nothing is sealed yet). */
  async chainHead(workspaceId: string): Promise<{ anchor: ChainLink; last: ChainLink } | null> {
    const [row] = await this.transactions.query<{ anchor_seq: string; anchor_hash: string; last_seq: string; last_hash: string }>(
      `SELECT anchor_seq::text, anchor_hash, last_seq::text, last_hash FROM audit_chain_heads WHERE workspace_id = $1`,
      [workspaceId],
    );
    return row ? { anchor: { seq: row.anchor_seq, hash: row.anchor_hash }, last: { seq: row.last_seq, hash: row.last_hash } } : null;
  }

  /** A batch of the sealed chain in `seq` order after `afterSeq`. */
  async sealedAfter(workspaceId: string, afterSeq: string, limit: number): Promise<StoredEntry[]> {
    const rows = await this.transactions.query<RawEntry>(
      `SELECT ${ENTRY_COLUMNS} FROM audit_log WHERE workspace_id = $1 AND seq > $2::bigint ORDER BY audit_log.seq LIMIT $3`,
      [workspaceId, afterSeq, limit],
    );
    return rows.map(stored);
  }

  /** The workspace's entries not sealed yet (a handful: the sealer is about a second behind). */
  async unsealed(workspaceId: string): Promise<StoredEntry[]> {
    const rows = await this.transactions.query<RawEntry>(
      `SELECT ${PENDING_COLUMNS} FROM audit_pending WHERE workspace_id = $1 ORDER BY audit_pending.tx_id, audit_pending.entry_no`,
      [workspaceId],
    );
    return rows.map(stored);
  }

  /**
   * Takes the sealer's lock for this transaction; false when another sealer holds it. Call first
   * in the sealer's transaction.
   */
  async lockSealer(): Promise<boolean> {
    const [row] = await this.transactions.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [SEALER_LOCK]);
    return row.locked;
  }

  /**
   * Up to `limit` unsealed entries behind the commit horizon, in chain order (`tx_id`, then entry
   * number): every transaction that wrote them has ended, so no entry can appear before them later.
   */
  async entriesToSeal(limit: number): Promise<EntryToSeal[]> {
    return this.transactions.query<EntryToSeal>(
      `SELECT p.workspace_id AS "workspaceId", p.tx_id::text AS "txId", p.entry_no::text AS "entryNo", p.content_hash AS "contentHash"
         FROM audit_pending p WHERE p.tx_id < ${COMMIT_HORIZON} AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = p.workspace_id)
        ORDER BY p.tx_id, p.entry_no LIMIT $1`,
      [limit],
    );
  }

  /** The heads of these workspaces' chains, created at the genesis when missing, locked for this transaction. */
  async lockHeads(workspaceIds: readonly string[]): Promise<Map<string, ChainLink>> {
    await this.transactions.query(`INSERT INTO audit_chain_heads (workspace_id) SELECT unnest($1::uuid[]) ON CONFLICT (workspace_id) DO NOTHING`, [workspaceIds]);
    const rows = await this.transactions.query<{ workspace_id: string; last_seq: string; last_hash: string }>(
      `SELECT workspace_id, last_seq::text, last_hash FROM audit_chain_heads WHERE workspace_id = ANY($1::uuid[]) ORDER BY workspace_id FOR UPDATE`,
      [workspaceIds],
    );
    return new Map(rows.map((row) => [row.workspace_id, { seq: row.last_seq, hash: row.last_hash }]));
  }

  /** Moves the sealed entries from `audit_pending` into the chain with their seals, and stores the workspaces' new heads. */
  async applySeals(seals: readonly Seal[], heads: ReadonlyMap<string, ChainLink>): Promise<void> {
    await this.transactions.query(
      `WITH moved AS (
         DELETE FROM audit_pending p
          USING unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[]) AS s (tx_id, entry_no, seq, prev_hash, hash)
          WHERE p.tx_id = s.tx_id::xid8 AND p.entry_no = s.entry_no
         RETURNING p.*, s.seq, s.prev_hash, s.hash)
       INSERT INTO audit_log (entry_no, workspace_id, tx_id, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash, seq, prev_hash, hash)
       SELECT entry_no, workspace_id, tx_id, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash, seq, prev_hash, hash
         FROM moved ORDER BY workspace_id, seq`,
      [seals.map((s) => s.txId), seals.map((s) => s.entryNo), seals.map((s) => s.seq), seals.map((s) => s.prevHash), seals.map((s) => s.hash)].map(arrayLiteral),
    );
    const workspaces = [...heads.keys()];
    await this.transactions.query(
      `UPDATE audit_chain_heads h SET last_seq = n.seq, last_hash = n.hash
         FROM unnest($1::uuid[], $2::bigint[], $3::text[]) AS n (workspace_id, seq, hash) WHERE h.workspace_id = n.workspace_id`,
      [workspaces, workspaces.map((id) => heads.get(id)?.seq), workspaces.map((id) => heads.get(id)?.hash)],
    );
  }

  /**
   * The retention cut: removes the workspace's sealed entries up to the last one before the first
   * sealed entry at or after `cutoff`, and makes that entry's link the chain's new anchor, so the
   * kept entries still verify. Entries not sealed yet are never cut. Locks the chain head, so it
   * never races the sealer.
   */
  async cutBefore(workspaceId: string, cutoff: Date): Promise<number> {
    return this.transactions.run(async () => {
      const [head] = await this.transactions.query<{ anchor_seq: string; last_seq: string }>(
        `SELECT anchor_seq::text, last_seq::text FROM audit_chain_heads WHERE workspace_id = $1 FOR UPDATE`,
        [workspaceId],
      );
      if (!head) return 0;
      const [through] = await this.transactions.query<{ seq: string | null }>(
        `SELECT coalesce((SELECT min(seq) FROM audit_log WHERE workspace_id = $1 AND occurred_at >= $2) - 1, $3::bigint)::text AS seq`,
        [workspaceId, cutoff, head.last_seq],
      );
      if (!through.seq || BigInt(through.seq) <= BigInt(head.anchor_seq)) return 0;
      const [last] = await this.transactions.query<{ hash: string }>(`SELECT hash FROM audit_log WHERE workspace_id = $1 AND seq = $2::bigint`, [workspaceId, through.seq]);
      if (!last) return 0;
      const removed = await this.transactions.query<{ seq: string }>(
        `DELETE FROM audit_log WHERE workspace_id = $1 AND seq <= $2::bigint RETURNING seq`,
        [workspaceId, through.seq],
      );
      await this.transactions.query(`UPDATE audit_chain_heads SET anchor_seq = $2::bigint, anchor_hash = $3 WHERE workspace_id = $1`, [workspaceId, through.seq, last.hash]);
      return removed.length;
    });
  }

  /** The workspaces whose first kept sealed entry is older than `cutoff`: those the retention sweep visits. */
  async workspacesWithEntriesBefore(cutoff: Date): Promise<string[]> {
    const rows = await this.transactions.query<{ workspace_id: string }>(
      `SELECT h.workspace_id FROM audit_chain_heads h
        WHERE EXISTS (SELECT 1 FROM audit_log l WHERE l.workspace_id = h.workspace_id AND l.seq = h.anchor_seq + 1 AND l.occurred_at < $1)`,
      [cutoff],
    );
    return rows.map((row) => row.workspace_id);
  }
}
