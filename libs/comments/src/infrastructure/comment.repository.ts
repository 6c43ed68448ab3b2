import { Injectable } from '@nestjs/common';
import type { Actor } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Comment, Thread, ThreadSubject } from '../domain/comment';

interface RawComment {
  id: string;
  thread_id: string;
  object_id: string;
  record_id: string;
  list_id: string | null;
  entry_id: string | null;
  content_plaintext: string;
  author: Actor;
  resolved_at: Date | null;
  resolved_by: Actor | null;
  created_at: Date;
}

interface RawThread {
  id: string;
  object_id: string;
  record_id: string;
  list_id: string | null;
  entry_id: string | null;
  created_at: Date;
}

const COMMENT_COLUMNS = `c.id, c.thread_id, t.object_id, t.record_id, t.list_id, t.entry_id, c.content_plaintext, c.author, c.resolved_at, c.resolved_by, c.created_at`;
const FROM_COMMENTS = `FROM comments c JOIN comment_threads t ON t.workspace_id = c.workspace_id AND t.id = c.thread_id`;

export type ThreadFilter = { readonly recordId: string } | { readonly entryId: string } | null;

/** Threads and comments in SQL, scoped by workspace_id first; comments in (created_at, id) order. */
@Injectable()
export class CommentRepository {
  constructor(private readonly transactions: TransactionRunner) {}


  async insertThread(workspaceId: string, threadId: string, subject: ThreadSubject): Promise<void> {
    await this.transactions.query(`INSERT INTO comment_threads (workspace_id, id, object_id, record_id, list_id, entry_id) VALUES ($1, $2, $3, $4, $5, $6)`, [
      workspaceId,
      threadId,
      subject.objectId,
      subject.recordId,
      subject.entry?.listId ?? null,
      subject.entry?.entryId ?? null,
    ]);
  }

  /** The thread's subject, locked for the rest of the transaction (a delete of its head waits for a new reply, and the other way round). */
  async lockThread(workspaceId: string, threadId: string): Promise<ThreadSubject | null> {
    const rows = await this.transactions.query<RawThread>(`SELECT id, object_id, record_id, list_id, entry_id, created_at FROM comment_threads WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [
      workspaceId,
      threadId,
    ]);
    return rows[0] ? toSubject(rows[0]) : null;
  }

  async insertComment(comment: { workspaceId: string; id: string; threadId: string; contentPlaintext: string; author: Actor; createdAt: Date | null }): Promise<void> {
    await this.transactions.query(
      `INSERT INTO comments (workspace_id, id, thread_id, content_plaintext, author, created_at) VALUES ($1, $2, $3, $4, $5, COALESCE($6::timestamptz, clock_timestamp()))`,
      [comment.workspaceId, comment.id, comment.threadId, comment.contentPlaintext, JSON.stringify(comment.author), comment.createdAt?.toISOString() ?? null],
    );
  }

  async findComment(workspaceId: string, commentId: string): Promise<Comment | null> {
    const rows = await this.transactions.query<RawComment>(`SELECT ${COMMENT_COLUMNS} ${FROM_COMMENTS} WHERE c.workspace_id = $1 AND c.id = $2`, [workspaceId, commentId]);
    return rows[0] ? toComment(workspaceId, rows[0]) : null;
  }

  /** The id of the thread's first comment (its head). */
  async headCommentId(workspaceId: string, threadId: string): Promise<string | null> {
    const rows = await this.transactions.query<{ id: string }>(`SELECT id FROM comments WHERE workspace_id = $1 AND thread_id = $2 ORDER BY created_at, id LIMIT 1`, [workspaceId, threadId]);
    return rows[0]?.id ?? null;
  }

  async deleteComment(workspaceId: string, commentId: string): Promise<void> {
    await this.transactions.query(`DELETE FROM comments WHERE workspace_id = $1 AND id = $2`, [workspaceId, commentId]);
  }

  /** Deletes the thread and its comments; the deleted comments, oldest first. */
  async deleteThread(workspaceId: string, threadId: string): Promise<Comment[]> {
    const comments = await this.commentsOf(workspaceId, [threadId]);
    await this.transactions.query(`DELETE FROM comment_threads WHERE workspace_id = $1 AND id = $2`, [workspaceId, threadId]);
    return comments;
  }

  /** Moves the threads on any of `from` (on the record, or on one of its entries) to the record `into`. */
  async moveThreadsToRecord(workspaceId: string, from: readonly string[], into: string): Promise<void> {
    await this.transactions.query(`UPDATE comment_threads SET record_id = $3 WHERE workspace_id = $1 AND record_id = ANY ($2::uuid[])`, [workspaceId, from, into]);
  }

  /** Deletes every thread on these records or entries; their comments, oldest first. */
  async deleteThreadsOf(workspaceId: string, recordOrEntryIds: readonly string[]): Promise<Comment[]> {
    if (recordOrEntryIds.length === 0) return [];
    const threads = await this.transactions.query<{ id: string }>(
      `SELECT id FROM comment_threads WHERE workspace_id = $1 AND (record_id = ANY ($2::uuid[]) OR entry_id = ANY ($2::uuid[])) FOR UPDATE`,
      [workspaceId, recordOrEntryIds],
    );
    if (threads.length === 0) return [];
    const ids = threads.map((t) => t.id);
    const comments = await this.commentsOf(workspaceId, ids);
    await this.transactions.query(`DELETE FROM comment_threads WHERE workspace_id = $1 AND id = ANY ($2::uuid[])`, [workspaceId, ids]);
    return comments;
  }

  async findThread(workspaceId: string, threadId: string): Promise<Thread | null> {
    const rows = await this.transactions.query<RawThread>(`SELECT id, object_id, record_id, list_id, entry_id, created_at FROM comment_threads WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      threadId,
    ]);
    return (await this.withComments(workspaceId, rows))[0] ?? null;
  }

  /** A page of threads in (created_at, id) order: all, a record's own (not its entries'), or an entry's. */
  async listThreads(workspaceId: string, filter: ThreadFilter, page: { limit: number; offset: number }): Promise<Thread[]> {
    const params: unknown[] = [workspaceId];
    let where = 'workspace_id = $1';
    if (filter && 'recordId' in filter) {
      params.push(filter.recordId);
      where += ` AND record_id = $2 AND entry_id IS NULL`;
    } else if (filter) {
      params.push(filter.entryId);
      where += ` AND entry_id = $2`;
    }
    params.push(page.limit, page.offset);
    const rows = await this.transactions.query<RawThread>(
      `SELECT id, object_id, record_id, list_id, entry_id, created_at FROM comment_threads WHERE ${where} ORDER BY created_at, id LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return this.withComments(workspaceId, rows);
  }

  private async commentsOf(workspaceId: string, threadIds: readonly string[]): Promise<Comment[]> {
    const rows = await this.transactions.query<RawComment>(`SELECT ${COMMENT_COLUMNS} ${FROM_COMMENTS} WHERE c.workspace_id = $1 AND c.thread_id = ANY ($2::uuid[]) ORDER BY c.created_at, c.id`, [
      workspaceId,
      threadIds,
    ]);
    return rows.map((row) => toComment(workspaceId, row));
  }

  private async withComments(workspaceId: string, rows: RawThread[]): Promise<Thread[]> {
    if (rows.length === 0) return [];
    const comments = await this.commentsOf(
      workspaceId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      workspaceId,
      id: row.id,
      subject: toSubject(row),
      comments: comments.filter((c) => c.threadId === row.id),
      createdAt: row.created_at,
    }));
  }
}

function toSubject(row: { object_id: string; record_id: string; list_id: string | null; entry_id: string | null }): ThreadSubject {
  return { objectId: row.object_id, recordId: row.record_id, entry: row.list_id && row.entry_id ? { listId: row.list_id, entryId: row.entry_id } : null };
}

function toComment(workspaceId: string, row: RawComment): Comment {
  return {
    workspaceId,
    id: row.id,
    threadId: row.thread_id,
    subject: toSubject(row),
    contentPlaintext: row.content_plaintext,
    author: row.author,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by,
    createdAt: row.created_at,
  };
}
