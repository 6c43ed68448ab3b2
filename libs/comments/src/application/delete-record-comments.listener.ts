import { Injectable } from '@nestjs/common';
import type { Container } from '@workbase/schema';
import type { RecordDeletionListener } from '@workbase/records';
import type { Actor } from '@workbase/shared/kernel';
import { EventOutbox } from '@workbase/shared/persistence';
import { CommentRepository } from '../infrastructure/comment.repository';
import { COMMENT_EVENTS, commentEvent } from './comments.events';

/**
 * Deletes the threads on records or entries the record engine is deleting, recording one
 * `comment.deleted` per comment, in the engine's deleting transaction (registered under
 * RECORD_DELETION_LISTENERS by the composition root). The foreign keys' cascade would delete
 * them too, but silently.
 */
@Injectable()
export class DeleteRecordCommentsListener implements RecordDeletionListener {
  constructor(
    private readonly comments: CommentRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async recordsDeleting(workspaceId: string, container: Container, recordIds: readonly string[], actor: Actor): Promise<void> {
    if (container.kind === 'activity') return;
    const deleted = await this.comments.deleteThreadsOf(workspaceId, recordIds);
    await this.outbox.record(...deleted.map((comment) => commentEvent(COMMENT_EVENTS.deleted, comment, actor)));
  }

  /** The threads on a deleted record's entries, of every list in one statement (threads are found by entry id alone). */
  async entriesDeleting(workspaceId: string, lists: ReadonlyArray<{ readonly list: Container; readonly entryIds: readonly string[] }>, actor: Actor): Promise<void> {
    const deleted = await this.comments.deleteThreadsOf(workspaceId, lists.flatMap((group) => group.entryIds));
    await this.outbox.record(...deleted.map((comment) => commentEvent(COMMENT_EVENTS.deleted, comment, actor)));
  }
}
