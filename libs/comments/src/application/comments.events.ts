import type { Actor, DomainEvent, EventType } from '@workbase/shared/kernel';
import type { Comment } from '../domain/comment';

export const COMMENT_EVENTS = {
  created: 'comment.created',
  deleted: 'comment.deleted',
} as const satisfies Record<string, EventType>;

/**
 * A comment event: `id` is `{workspace_id, comment_id}`; `thread_id`, `object_id` and `record_id`
 * (and `list_id`, `entry_id` for a comment on an entry) ride at the top level so that webhook
 * subscriptions can filter on them (the catalogue's comment family).
 */
export function commentEvent(eventType: (typeof COMMENT_EVENTS)[keyof typeof COMMENT_EVENTS], comment: Comment, actor: Actor): DomainEvent {
  const { subject } = comment;
  return {
    eventType,
    workspaceId: comment.workspaceId,
    id: { workspace_id: comment.workspaceId, comment_id: comment.id },
    actor,
    payload: {
      thread_id: comment.threadId,
      object_id: subject.objectId,
      record_id: subject.recordId,
      ...(subject.entry ? { list_id: subject.entry.listId, entry_id: subject.entry.entryId } : {}),
    },
  };
}
