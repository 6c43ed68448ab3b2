import { Injectable } from '@nestjs/common';
import type { Actor } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Note, NoteTag } from '../domain/note';

interface RawNote {
  id: string;
  parent_object_id: string;
  api_slug: string;
  parent_record_id: string;
  title: string;
  meeting_id: string | null;
  content_plaintext: string;
  content_markdown: string;
  tags: NoteTag[];
  created_by: Actor;
  created_at: Date;
}

const SELECT = `SELECT n.id, n.parent_object_id, o.api_slug, n.parent_record_id, n.title, n.meeting_id, n.content_plaintext, n.content_markdown, n.tags, n.created_by, n.created_at
  FROM notes n JOIN objects o ON o.workspace_id = n.workspace_id AND o.id = n.parent_object_id`;

/** Notes in SQL, scoped by workspace_id first; lists are ordered by (created_at, id). */
@Injectable()
export class NoteRepository {
  constructor(private readonly transactions: TransactionRunner) {}


  async insert(note: Omit<Note, 'parentObjectSlug' | 'tags'>): Promise<void> {
    await this.transactions.query(
      `INSERT INTO notes (workspace_id, id, parent_object_id, parent_record_id, title, meeting_id, content_plaintext, content_markdown, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        note.workspaceId,
        note.id,
        note.parentObjectId,
        note.parentRecordId,
        note.title,
        note.meetingId,
        note.contentPlaintext,
        note.contentMarkdown,
        JSON.stringify(note.createdBy),
        note.createdAt.toISOString(),
      ],
    );
  }

  async findById(workspaceId: string, noteId: string, options: { lock?: boolean } = {}): Promise<Note | null> {
    const rows = await this.transactions.query<RawNote>(`${SELECT} WHERE n.workspace_id = $1 AND n.id = $2${options.lock ? ' FOR UPDATE OF n' : ''}`, [workspaceId, noteId]);
    return rows[0] ? toNote(workspaceId, rows[0]) : null;
  }

  async list(workspaceId: string, filter: { parentObjectId?: string; parentRecordId?: string; limit: number; offset: number }): Promise<Note[]> {
    const params: unknown[] = [workspaceId];
    const where = ['n.workspace_id = $1'];
    if (filter.parentObjectId) {
      params.push(filter.parentObjectId);
      where.push(`n.parent_object_id = $${params.length}`);
    }
    if (filter.parentRecordId) {
      params.push(filter.parentRecordId);
      where.push(`n.parent_record_id = $${params.length}`);
    }
    params.push(filter.limit, filter.offset);
    const rows = await this.transactions.query<RawNote>(
      `${SELECT} WHERE ${where.join(' AND ')} ORDER BY n.created_at, n.id LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map((row) => toNote(workspaceId, row));
  }

  async update(workspaceId: string, noteId: string, changes: { title?: string; contentPlaintext?: string; contentMarkdown?: string }): Promise<void> {
    await this.transactions.query(
      `UPDATE notes SET title = COALESCE($3, title), content_plaintext = COALESCE($4, content_plaintext), content_markdown = COALESCE($5, content_markdown),
         updated_at = clock_timestamp() WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, noteId, changes.title ?? null, changes.contentPlaintext ?? null, changes.contentMarkdown ?? null],
    );
  }

  /** Locks the note's row for its delete; false when there is no such note. */
  async lockForDelete(workspaceId: string, noteId: string): Promise<boolean> {
    const rows = await this.transactions.query<unknown>(`SELECT 1 FROM notes WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [workspaceId, noteId]);
    return rows.length > 0;
  }

  /** Deletes the note; its parent ids when it existed. */
  async delete(workspaceId: string, noteId: string): Promise<{ parentObjectId: string; parentRecordId: string } | null> {
    const rows = await this.transactions.query<{ parent_object_id: string; parent_record_id: string }>(
      `WITH deleted AS (DELETE FROM notes WHERE workspace_id = $1 AND id = $2 RETURNING parent_object_id, parent_record_id) SELECT * FROM deleted`,
      [workspaceId, noteId],
    );
    return rows[0] ? { parentObjectId: rows[0].parent_object_id, parentRecordId: rows[0].parent_record_id } : null;
  }

  /** Moves the notes of any of `from` to the record `into` (records merged into a new one); their ids and content stay. */
  async moveToRecord(workspaceId: string, from: readonly string[], into: string): Promise<void> {
    await this.transactions.query(`UPDATE notes SET parent_record_id = $3 WHERE workspace_id = $1 AND parent_record_id = ANY ($2::uuid[])`, [workspaceId, from, into]);
  }

  /** Deletes every note on the records; the deleted notes' ids and parents, in (created_at, id) order. */
  async deleteByParentRecords(workspaceId: string, recordIds: readonly string[]): Promise<Array<{ id: string; parentObjectId: string; parentRecordId: string }>> {
    if (recordIds.length === 0) return [];
    const rows = await this.transactions.query<{ id: string; parent_object_id: string; parent_record_id: string }>(
      `WITH deleted AS (DELETE FROM notes WHERE workspace_id = $1 AND parent_record_id = ANY ($2::uuid[]) RETURNING id, parent_object_id, parent_record_id, created_at)
       SELECT id, parent_object_id, parent_record_id FROM deleted ORDER BY created_at, id`,
      [workspaceId, recordIds],
    );
    return rows.map((row) => ({ id: row.id, parentObjectId: row.parent_object_id, parentRecordId: row.parent_record_id }));
  }
}

function toNote(workspaceId: string, row: RawNote): Note {
  return {
    workspaceId,
    id: row.id,
    parentObjectId: row.parent_object_id,
    parentObjectSlug: row.api_slug,
    parentRecordId: row.parent_record_id,
    title: row.title,
    meetingId: row.meeting_id,
    contentPlaintext: row.content_plaintext,
    contentMarkdown: row.content_markdown,
    tags: row.tags,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}
