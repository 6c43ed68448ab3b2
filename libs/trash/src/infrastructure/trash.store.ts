import { Injectable } from '@nestjs/common';
import type { Actor, TrashBin, TrashedItem, TrashKind } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { captureStatement, type SavedRows, type TableShare } from '../domain/trash-plan';

export interface TrashEntry {
  readonly kind: TrashKind;
  readonly id: string;
  readonly containerId: string | null;
  readonly deletedAt: string;
  readonly deletedBy: Actor;
}

export interface TrashContents extends TrashEntry {
  readonly rows: SavedRows;
  /** Incoming record references the delete closed (record_values ids). */
  readonly closedReferences: readonly string[];
}

export interface UniqueHolder {
  readonly attributeId: string;
  readonly attributeSlug: string;
  readonly recordId: string;
}

interface RawEntry {
  kind: TrashKind;
  id: string;
  container_id: string | null;
  deleted_at: string;
  deleted_by: Actor;
}

const ENTRY_COLUMNS = `kind, id, container_id, to_char(deleted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS deleted_at, deleted_by`;
const CLOSED_REFERENCES = `ARRAY(SELECT v.id FROM record_values v JOIN attributes a ON a.workspace_id = v.workspace_id AND a.id = v.attribute_id AND a.type = 'record-reference'
   WHERE v.workspace_id = $1 AND v.active_until IS NULL AND v.value_ref IN (SELECT id FROM records WHERE workspace_id = $1 AND (id = $2 OR parent_record_id = $2))
     AND v.record_id NOT IN (SELECT id FROM records WHERE workspace_id = $1 AND (id = $2 OR parent_record_id = $2)))`;

/** The `trash_items` table: one row per trashed item, holding its saved rows as JSON. */
@Injectable()
export class TrashStore implements TrashBin {
  constructor(private readonly transactions: TransactionRunner) {}

  /** Saves the item's rows (and the incoming references its delete will close) in one statement, before they go. */
  async keep(item: TrashedItem): Promise<void> {
    const references = item.kind === 'records' || item.kind === 'entries' ? CLOSED_REFERENCES : `'{}'::bigint[]`;
    await this.transactions.query(
      `INSERT INTO trash_items (workspace_id, id, kind, container_id, deleted_by, saved_rows, closed_references)
       SELECT $1::uuid, $2::uuid, $3::text, $4::uuid, $5::jsonb, captured.rows, ${references} FROM (${captureStatement(item.kind)}) captured
       ON CONFLICT (workspace_id, id) DO UPDATE SET kind = EXCLUDED.kind, container_id = EXCLUDED.container_id, deleted_at = EXCLUDED.deleted_at,
         deleted_by = EXCLUDED.deleted_by, saved_rows = EXCLUDED.saved_rows, closed_references = EXCLUDED.closed_references`,
      [item.workspaceId, item.id, item.kind, item.containerId ?? null, JSON.stringify(item.actor)],
    );
  }

  /** A page of the trash, newest first, keyed by (deleted_at, id). */
  async page(
    workspaceId: string,
    filter: { kind: TrashKind; containerId?: string },
    limit: number,
    after: { deletedAt: string; id: string } | null,
  ): Promise<TrashEntry[]> {
    const params: unknown[] = [workspaceId, filter.kind, limit + 1];
    const container = filter.containerId === undefined ? '' : `AND container_id = $${params.push(filter.containerId)}`;
    const keyset = after ? `AND (deleted_at, id) < ($${params.push(after.deletedAt)}::timestamptz, $${params.push(after.id)}::uuid)` : '';
    const rows = await this.transactions.query<RawEntry>(
      `SELECT ${ENTRY_COLUMNS} FROM trash_items WHERE workspace_id = $1 AND kind = $2 ${container} ${keyset} ORDER BY deleted_at DESC, id DESC LIMIT $3`,
      params,
    );
    return rows.map(toEntry);
  }

  /** The item, locked for the rest of the transaction (a restore and a purge of it serialise). */
  async lock(workspaceId: string, kind: TrashKind, id: string): Promise<TrashContents | null> {
    const rows = await this.transactions.query<RawEntry & { saved_rows: SavedRows; closed_references: string[] }>(
      `SELECT ${ENTRY_COLUMNS}, saved_rows, closed_references::text[] AS closed_references FROM trash_items WHERE workspace_id = $1 AND kind = $2 AND id = $3 FOR UPDATE`,
      [workspaceId, kind, id],
    );
    const row = rows[0];
    return row ? { ...toEntry(row), rows: row.saved_rows, closedReferences: row.closed_references } : null;
  }

  /** Unique values of the saved rows that live records hold now, with the attribute and the holder. */
  async uniqueHolders(workspaceId: string, uniqueRows: SavedRows[string]): Promise<UniqueHolder[]> {
    if (uniqueRows.length === 0) return [];
    const rows = await this.transactions.query<{ attribute_id: string; api_slug: string; record_id: string }>(
      `SELECT u.attribute_id, a.api_slug, u.record_id FROM jsonb_populate_recordset(NULL::unique_values, $2::jsonb) s
         JOIN unique_values u ON u.workspace_id = $1 AND u.attribute_id = s.attribute_id AND u.value_key = s.value_key
         JOIN attributes a ON a.workspace_id = u.workspace_id AND a.id = u.attribute_id
        ORDER BY a.api_slug, u.record_id`,
      [workspaceId, JSON.stringify(uniqueRows)],
    );
    return rows.map((row) => ({ attributeId: row.attribute_id, attributeSlug: row.api_slug, recordId: row.record_id }));
  }

  /** Which of these record ids are live (not deleted). */
  async liveRecords(workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.transactions.query<{ id: string }>(`SELECT id FROM records WHERE workspace_id = $1 AND id = ANY ($2::uuid[])`, [workspaceId, ids]);
    return new Set(rows.map((row) => row.id));
  }

  /** Which of these containers (objects or lists) still exist. */
  async liveContainers(workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.transactions.query<{ id: string }>(
      `SELECT id FROM objects WHERE workspace_id = $1 AND id = ANY ($2::uuid[]) UNION SELECT id FROM lists WHERE workspace_id = $1 AND id = ANY ($2::uuid[])`,
      [workspaceId, ids],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Puts the saved rows back with their ids (identity columns included), every table in one
   * statement: foreign keys are checked at its end, when parents and children are all in. Rows a
   * share's `restoreIf` refuses stay out (their check sees the tables as they were before). Rows
   * the delete only unlinked (`relink`) are linked again in the same statement.
   */
  async reinsert(workspaceId: string, shares: readonly TableShare[], rows: SavedRows): Promise<void> {
    const params: unknown[] = [workspaceId];
    const inserts = shares
      .filter((share) => (rows[share.table] ?? []).length > 0)
      .map((share, i) => {
        const saved = params.push(JSON.stringify(rows[share.table]));
        if (share.relink) {
          const { key, column, sameIf } = share.relink;
          const match = key.map((k) => `p.${k} = s.${k}`).join(' AND ');
          return `i${i} AS (UPDATE ${share.table} p SET ${column} = s.${column} FROM jsonb_populate_recordset(NULL::${share.table}, $${saved}::jsonb) s
            WHERE p.workspace_id = $1 AND s.workspace_id = $1 AND ${match} AND p.${column} IS NULL${sameIf ? ` AND ${sameIf}` : ''})`;
        }
        const only = share.restoreIf ? ` AND ${share.restoreIf}` : '';
        const onConflict = share.skipExisting ? ' ON CONFLICT DO NOTHING' : '';
        return `i${i} AS (INSERT INTO ${share.table} OVERRIDING SYSTEM VALUE SELECT s.* FROM jsonb_populate_recordset(NULL::${share.table}, $${saved}::jsonb) s WHERE s.workspace_id = $1${only}${onConflict})`;
      });
    if (inserts.length === 0) return;
    await this.transactions.query(`WITH ${inserts.join(',\n')} SELECT 1`, params);
  }

  /**
   * Opens again the references the delete closed, where their holder still exists and still has
   * room for them (a multiselect attribute, or a single one that has no current value since).
   */
  async reopenReferences(workspaceId: string, valueIds: readonly string[]): Promise<void> {
    if (valueIds.length === 0) return;
    await this.transactions.query(
      `UPDATE record_values v SET active_until = NULL
        WHERE v.workspace_id = $1 AND v.id = ANY ($2::bigint[]) AND v.active_until IS NOT NULL
          AND EXISTS (SELECT 1 FROM records r WHERE r.workspace_id = v.workspace_id AND r.id = v.record_id)
          AND (EXISTS (SELECT 1 FROM attributes a WHERE a.workspace_id = v.workspace_id AND a.id = v.attribute_id AND a.is_multiselect)
               OR NOT EXISTS (SELECT 1 FROM record_values o WHERE o.workspace_id = v.workspace_id AND o.record_id = v.record_id AND o.attribute_id = v.attribute_id AND o.active_until IS NULL))`,
      [workspaceId, valueIds],
    );
  }

  /** The comment threads of these ids (for the events of restored comments whose thread stayed). */
  async threads(workspaceId: string, ids: readonly string[]): Promise<Array<Record<string, unknown>>> {
    if (ids.length === 0) return [];
    return this.transactions.query<Record<string, unknown>>(`SELECT to_jsonb(t) AS row FROM comment_threads t WHERE t.workspace_id = $1 AND t.id = ANY ($2::uuid[])`, [workspaceId, ids]).then((rows) =>
      rows.map((r) => r.row as Record<string, unknown>),
    );
  }

  /**
   * Removes items for good: `ids` of one workspace, or every item deleted before `deletedBefore`
   * (a batch of at most `limit`). The S3 objects of their files are recorded for removal, as a
   * delete without trash does.
   */
  async purge(scope: { workspaceId: string; kind: TrashKind; id: string } | { deletedBefore: Date; limit: number }): Promise<number> {
    const [where, params] =
      'id' in scope
        ? [`workspace_id = $1 AND kind = $2 AND id = $3`, [scope.workspaceId, scope.kind, scope.id]]
        : [`(workspace_id, id) IN (SELECT workspace_id, id FROM trash_items WHERE deleted_at < $1 ORDER BY deleted_at LIMIT $2 FOR UPDATE SKIP LOCKED)`, [scope.deletedBefore, scope.limit]];
    const rows = await this.transactions.query<{ count: string }>(
      `WITH gone AS (DELETE FROM trash_items WHERE ${where} RETURNING workspace_id, saved_rows),
         discarded AS (INSERT INTO discarded_file_contents (workspace_id, storage_key)
           SELECT g.workspace_id, f->>'storage_key' FROM gone g, jsonb_array_elements(coalesce(g.saved_rows->'files', '[]'::jsonb)) f
            WHERE f->>'storage_key' IS NOT NULL ON CONFLICT DO NOTHING)
       SELECT count(*) AS count FROM gone`,
      params,
    );
    return Number(rows[0].count);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.transactions.query(`DELETE FROM trash_items WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
  }
}

function toEntry(row: RawEntry): TrashEntry {
  return { kind: row.kind, id: row.id, containerId: row.container_id, deletedAt: row.deleted_at, deletedBy: row.deleted_by };
}
