import { Injectable } from '@nestjs/common';
import { RecordEngine } from '@workbase/records';
import type { Task } from '../domain/task';
import type { TaskSort } from '../domain/task';
import { TaskRepository } from '../infrastructure/task.repository';
import { taskNotFound } from './task.commands';
import { type AssigneeRef, TaskReferences } from './task-references';

export interface TaskListRequest {
  readonly linked?: { readonly object: string; readonly recordId: string };
  /** A member (by id or email), or `none`: tasks nobody is assigned to. */
  readonly assignee?: AssigneeRef | 'none';
  readonly isCompleted?: boolean;
  readonly sort: TaskSort;
  readonly limit: number;
  readonly offset: number;
}

@Injectable()
export class TaskQueries {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly references: TaskReferences,
    private readonly records: RecordEngine,
  ) {}

  async get(workspaceId: string, taskId: string): Promise<Task> {
    const task = await this.tasks.findById(workspaceId, taskId);
    if (!task) throw taskNotFound(taskId);
    return task;
  }

  /**
   * A page of tasks. An unknown `linked_object` is a 404 (as on the notes and meetings lists); an
   * unknown assignee a 400 `value_not_found` naming `assignee` (a filter that can match nothing
   * is a mistake worth reporting, not an empty page).
   */
  async list(workspaceId: string, request: TaskListRequest): Promise<Task[]> {
    const linked = request.linked ? { objectId: (await this.records.object(workspaceId, request.linked.object)).id, recordId: request.linked.recordId } : undefined;
    const assignee =
      request.assignee === undefined || request.assignee === 'none' ? request.assignee : await this.references.memberId(workspaceId, request.assignee, 'assignee');
    return this.tasks.list(workspaceId, { linked, assignee, isCompleted: request.isCompleted, sort: request.sort, limit: request.limit, offset: request.offset });
  }
}
