import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { isoNanos } from './sql';

export interface RecordEntryRow {
  readonly listId: string;
  readonly listApiSlug: string;
  readonly entryId: string;
  readonly createdAt: string;
}

/** The list entries whose parent is a record, through `records_parent` (workspace_id, parent_record_id). */
@Injectable()
export class RecordEntriesRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  async entriesOf(workspaceId: string, recordId: string, page: { limit: number; offset: number }): Promise<RecordEntryRow[]> {
    const rows: Array<{ list_id: string; api_slug: string; entry_id: string; created_at: string }> = await this.transactions.manager().query(
      `SELECT l.id AS list_id, l.api_slug, e.id AS entry_id, ${isoNanos('e.created_at')} AS created_at
         FROM records e JOIN lists l ON l.workspace_id = e.workspace_id AND l.id = e.container_id
        WHERE e.workspace_id = $1 AND e.parent_record_id = $2
        ORDER BY e.created_at, e.id LIMIT $3 OFFSET $4`,
      [workspaceId, recordId, page.limit, page.offset],
    );
    return rows.map((row) => ({ listId: row.list_id, listApiSlug: row.api_slug, entryId: row.entry_id, createdAt: row.created_at }));
  }
}
