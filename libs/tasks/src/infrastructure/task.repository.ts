import { Injectable } from '@nestjs/common';
import type { Actor } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Task, TaskLinkedRecord, TaskSort } from '../domain/task';

interface RawTask {
  id: string;
  content_plaintext: string;
  deadline_at: Date | null;
  is_completed: boolean;
  completed_at: Date | null;
  created_by: Actor;
  created_at: Date;
}

export interface TaskListFilter {
  readonly linked?: { readonly objectId: string; readonly recordId: string };
  /** A member id, or `none` for tasks nobody is assigned to. */
  readonly assignee?: string | 'none';
  readonly isCompleted?: boolean;
  readonly sort: TaskSort;
  readonly limit: number;
  readonly offset: number;
}

const ORDER: Record<TaskSort, string> = {
  'created_at:asc': 't.created_at ASC, t.id ASC',
  'created_at:desc': 't.created_at DESC, t.id DESC',
  // PostgreSQL's defaults (NULLS LAST ascending, NULLS FIRST descending) match the index.
  'completed_at:asc': 't.completed_at ASC, t.id ASC',
  'completed_at:desc': 't.completed_at DESC, t.id DESC',
};

/** Tasks with their links and assignees, in SQL, scoped by workspace_id first. */
@Injectable()
export class TaskRepository {
  constructor(private readonly transactions: TransactionRunner) {}


  async insert(task: Omit<Task, 'createdAt' | 'completedAt'>): Promise<void> {
    await this.transactions.query(
      `INSERT INTO tasks (workspace_id, id, content_plaintext, deadline_at, is_completed, completed_at, created_by)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $5 THEN clock_timestamp() END, $6)`,
      [task.workspaceId, task.id, task.contentPlaintext, task.deadlineAt?.toISOString() ?? null, task.isCompleted, JSON.stringify(task.createdBy)],
    );
    await this.replaceLinkedRecords(task.workspaceId, task.id, task.linkedRecords);
    await this.replaceAssignees(task.workspaceId, task.id, task.assigneeMemberIds);
  }

  async findById(workspaceId: string, taskId: string, options: { lock?: boolean } = {}): Promise<Task | null> {
    const rows = await this.transactions.query<RawTask>(
      `SELECT id, content_plaintext, deadline_at, is_completed, completed_at, created_by, created_at FROM tasks WHERE workspace_id = $1 AND id = $2${options.lock ? ' FOR UPDATE' : ''}`,
      [workspaceId, taskId],
    );
    return (await this.withRelations(workspaceId, rows))[0] ?? null;
  }

  async list(workspaceId: string, filter: TaskListFilter): Promise<Task[]> {
    const params: unknown[] = [workspaceId];
    const where = ['t.workspace_id = $1'];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.linked) {
      where.push(
        `EXISTS (SELECT 1 FROM task_linked_records l WHERE l.workspace_id = t.workspace_id AND l.task_id = t.id AND l.object_id = ${param(filter.linked.objectId)} AND l.record_id = ${param(filter.linked.recordId)})`,
      );
    }
    if (filter.assignee === 'none') {
      where.push(`NOT EXISTS (SELECT 1 FROM task_assignees a WHERE a.workspace_id = t.workspace_id AND a.task_id = t.id)`);
    } else if (filter.assignee !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM task_assignees a WHERE a.workspace_id = t.workspace_id AND a.task_id = t.id AND a.member_id = ${param(filter.assignee)})`);
    }
    if (filter.isCompleted !== undefined) where.push(`t.is_completed = ${param(filter.isCompleted)}`);
    const rows = await this.transactions.query<RawTask>(
      `SELECT t.id, t.content_plaintext, t.deadline_at, t.is_completed, t.completed_at, t.created_by, t.created_at FROM tasks t
       WHERE ${where.join(' AND ')} ORDER BY ${ORDER[filter.sort]} LIMIT ${param(filter.limit)} OFFSET ${param(filter.offset)}`,
      params,
    );
    return this.withRelations(workspaceId, rows);
  }

  async update(workspaceId: string, taskId: string, changes: { deadlineAt?: Date | null; isCompleted?: boolean }): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [workspaceId, taskId];
    if (changes.deadlineAt !== undefined) {
      params.push(changes.deadlineAt?.toISOString() ?? null);
      sets.push(`deadline_at = $${params.length}`);
    }
    if (changes.isCompleted !== undefined) {
      params.push(changes.isCompleted);
      // Completing stamps the time once; completing a completed task keeps the first stamp.
      sets.push(`is_completed = $${params.length}`, `completed_at = CASE WHEN $${params.length} THEN COALESCE(completed_at, clock_timestamp()) END`);
    }
    if (sets.length === 0) return;
    await this.transactions.query(`UPDATE tasks SET ${sets.join(', ')} WHERE workspace_id = $1 AND id = $2`, params);
  }

  async replaceLinkedRecords(workspaceId: string, taskId: string, linked: readonly TaskLinkedRecord[]): Promise<void> {
    await this.transactions.query(`DELETE FROM task_linked_records WHERE workspace_id = $1 AND task_id = $2`, [workspaceId, taskId]);
    if (linked.length === 0) return;
    await this.transactions.query(
      `INSERT INTO task_linked_records (workspace_id, task_id, position, object_id, record_id)
       SELECT $1, $2, p.ordinality - 1, p.object_id, p.record_id FROM unnest($3::uuid[], $4::uuid[]) WITH ORDINALITY AS p (object_id, record_id, ordinality)`,
      [workspaceId, taskId, linked.map((l) => l.objectId), linked.map((l) => l.recordId)],
    );
  }

  /**
   * Links the tasks linked to any of `from` to the record `into` instead, at the first of their
   * positions: a task linked to both originals is linked to the new record once.
   */
  async relinkRecords(workspaceId: string, from: readonly string[], into: string): Promise<void> {
    await this.transactions.query(
      `WITH moved AS (DELETE FROM task_linked_records WHERE workspace_id = $1 AND record_id = ANY ($2::uuid[]) RETURNING task_id, position, object_id)
       INSERT INTO task_linked_records (workspace_id, task_id, position, object_id, record_id)
       SELECT DISTINCT ON (task_id) $1::uuid, task_id, position, object_id, $3::uuid FROM moved ORDER BY task_id, position`,
      [workspaceId, from, into],
    );
  }

  async replaceAssignees(workspaceId: string, taskId: string, memberIds: readonly string[]): Promise<void> {
    await this.transactions.query(`DELETE FROM task_assignees WHERE workspace_id = $1 AND task_id = $2`, [workspaceId, taskId]);
    if (memberIds.length === 0) return;
    await this.transactions.query(
      `INSERT INTO task_assignees (workspace_id, task_id, position, member_id)
       SELECT $1, $2, p.ordinality - 1, p.member_id FROM unnest($3::uuid[]) WITH ORDINALITY AS p (member_id, ordinality)`,
      [workspaceId, taskId, memberIds],
    );
  }

  /** Locks the task's row for its delete; false when there is no such task. */
  async lockForDelete(workspaceId: string, taskId: string): Promise<boolean> {
    const rows = await this.transactions.query<unknown>(`SELECT 1 FROM tasks WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [workspaceId, taskId]);
    return rows.length > 0;
  }

  async delete(workspaceId: string, taskId: string): Promise<boolean> {
    const rows = await this.transactions.query<unknown>(`WITH deleted AS (DELETE FROM tasks WHERE workspace_id = $1 AND id = $2 RETURNING id) SELECT id FROM deleted`, [workspaceId, taskId]);
    return rows.length > 0;
  }

  private async withRelations(workspaceId: string, rows: RawTask[]): Promise<Task[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [links, assignees] = await Promise.all([
      this.transactions.query<{ task_id: string; object_id: string; record_id: string }>(
        `SELECT task_id, object_id, record_id FROM task_linked_records WHERE workspace_id = $1 AND task_id = ANY ($2::uuid[]) ORDER BY task_id, position`,
        [workspaceId, ids],
      ),
      this.transactions.query<{ task_id: string; member_id: string }>(
        `SELECT task_id, member_id FROM task_assignees WHERE workspace_id = $1 AND task_id = ANY ($2::uuid[]) ORDER BY task_id, position`,
        [workspaceId, ids],
      ),
    ]);
    return rows.map((row) => ({
      workspaceId,
      id: row.id,
      contentPlaintext: row.content_plaintext,
      deadlineAt: row.deadline_at,
      isCompleted: row.is_completed,
      completedAt: row.completed_at,
      linkedRecords: links.filter((l) => l.task_id === row.id).map((l) => ({ objectId: l.object_id, recordId: l.record_id })),
      assigneeMemberIds: assignees.filter((a) => a.task_id === row.id).map((a) => a.member_id),
      createdBy: row.created_by,
      createdAt: row.created_at,
    }));
  }
}
