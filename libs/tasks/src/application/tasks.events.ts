import type { Actor, DomainEvent, EventType } from '@workbase/shared/kernel';

export const TASK_EVENTS = {
  created: 'task.created',
  updated: 'task.updated',
  deleted: 'task.deleted',
} as const satisfies Record<string, EventType>;

/** A task event in the wire shape: `id` is `{workspace_id, task_id}` (reference facts §6.4). */
export function taskEvent(eventType: (typeof TASK_EVENTS)[keyof typeof TASK_EVENTS], workspaceId: string, taskId: string, actor: Actor): DomainEvent {
  return { eventType, workspaceId, id: { workspace_id: workspaceId, task_id: taskId }, actor };
}
