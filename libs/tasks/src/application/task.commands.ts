import { Inject, Injectable, Optional } from '@nestjs/common';
import { type Actor, newId, NotFoundError, TRASH_BIN, type TrashBin } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { checkTaskContent, type Task } from '../domain/task';
import { TaskRepository } from '../infrastructure/task.repository';
import { type AssigneeRef, type LinkedRecordRef, TaskReferences } from './task-references';
import { TASK_EVENTS, taskEvent } from './tasks.events';

export interface CreateTaskCommand {
  readonly workspaceId: string;
  readonly actor: Actor;
  readonly content: string;
  readonly deadlineAt: Date | null;
  readonly isCompleted: boolean;
  readonly linkedRecords: readonly LinkedRecordRef[];
  readonly assignees: readonly AssigneeRef[];
}

/** Absent fields stay as they are; `linked_records` and `assignees` replace the whole list. */
export interface UpdateTaskCommand {
  readonly workspaceId: string;
  readonly actor: Actor;
  readonly taskId: string;
  readonly deadlineAt?: Date | null;
  readonly isCompleted?: boolean;
  readonly linkedRecords?: readonly LinkedRecordRef[];
  readonly assignees?: readonly AssigneeRef[];
}

export function taskNotFound(taskId: string): NotFoundError {
  return new NotFoundError(`Task with ID "${taskId}" not found.`);
}

/**
 * Creating, changing and deleting tasks. Every write checks its references in the workspace and
 * records its event in the same transaction, so a refused write leaves neither rows nor events.
 */
@Injectable()
export class TaskCommands {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskRepository,
    private readonly references: TaskReferences,
    private readonly outbox: EventOutbox,
    @Optional() @Inject(TRASH_BIN) private readonly trash: TrashBin | null = null,
  ) {}

  async create(cmd: CreateTaskCommand): Promise<Task> {
    const content = checkTaskContent(cmd.content);
    const id = newId();
    return this.transactions.run(async () => {
      const linkedRecords = await this.references.linkedRecords(cmd.workspaceId, cmd.linkedRecords, 'data.linked_records');
      const assigneeMemberIds = await this.references.assignees(cmd.workspaceId, cmd.assignees, 'data.assignees');
      await this.tasks.insert({
        workspaceId: cmd.workspaceId,
        id,
        contentPlaintext: content,
        deadlineAt: cmd.deadlineAt,
        isCompleted: cmd.isCompleted,
        linkedRecords,
        assigneeMemberIds,
        createdBy: cmd.actor,
      });
      await this.outbox.record(taskEvent(TASK_EVENTS.created, cmd.workspaceId, id, cmd.actor));
      const task = await this.tasks.findById(cmd.workspaceId, id);
      if (!task) throw new Error(`task ${id} vanished after insert`);
      return task;
    });
  }

  /** Records `task.updated` only when something changed. */
  async update(cmd: UpdateTaskCommand): Promise<Task> {
    return this.transactions.run(async () => {
      const before = await this.tasks.findById(cmd.workspaceId, cmd.taskId, { lock: true });
      if (!before) throw taskNotFound(cmd.taskId);
      const linkedRecords = cmd.linkedRecords && (await this.references.linkedRecords(cmd.workspaceId, cmd.linkedRecords, 'data.linked_records'));
      const assignees = cmd.assignees && (await this.references.assignees(cmd.workspaceId, cmd.assignees, 'data.assignees'));
      const deadlineChanged = cmd.deadlineAt !== undefined && (cmd.deadlineAt?.getTime() ?? null) !== (before.deadlineAt?.getTime() ?? null);
      const completionChanged = cmd.isCompleted !== undefined && cmd.isCompleted !== before.isCompleted;
      const linksChanged = linkedRecords !== undefined && !sameList(linkedRecords.map((l) => l.recordId), before.linkedRecords.map((l) => l.recordId));
      const assigneesChanged = assignees !== undefined && !sameList(assignees, before.assigneeMemberIds);
      if (!deadlineChanged && !completionChanged && !linksChanged && !assigneesChanged) return before;
      await this.tasks.update(cmd.workspaceId, cmd.taskId, {
        deadlineAt: deadlineChanged ? cmd.deadlineAt : undefined,
        isCompleted: completionChanged ? cmd.isCompleted : undefined,
      });
      if (linksChanged && linkedRecords) await this.tasks.replaceLinkedRecords(cmd.workspaceId, cmd.taskId, linkedRecords);
      if (assigneesChanged && assignees) await this.tasks.replaceAssignees(cmd.workspaceId, cmd.taskId, assignees);
      await this.outbox.record(taskEvent(TASK_EVENTS.updated, cmd.workspaceId, cmd.taskId, cmd.actor));
      const after = await this.tasks.findById(cmd.workspaceId, cmd.taskId);
      if (!after) throw taskNotFound(cmd.taskId);
      return after;
    });
  }

  async delete(workspaceId: string, taskId: string, actor: Actor): Promise<void> {
    await this.transactions.run(async () => {
      // Locked before it is kept, with its links and assignees: an update (which locks the task
      // first) committing meanwhile is then in the copy, not lost by a later restore.
      if (!(await this.tasks.lockForDelete(workspaceId, taskId))) throw taskNotFound(taskId);
      await this.trash?.keep({ workspaceId, kind: 'tasks', id: taskId, actor });
      if (!(await this.tasks.delete(workspaceId, taskId))) throw taskNotFound(taskId);
      await this.outbox.record(taskEvent(TASK_EVENTS.deleted, workspaceId, taskId, actor));
    });
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
