import { Inject, Injectable, Optional } from '@nestjs/common';
import { MemberDirectory } from '@workbase/access';
import { RecordEngine } from '@workbase/records';
import { type Actor, DomainError, newId, NotFoundError, TRASH_BIN, type TrashBin } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { checkCommentContent, type Comment, type ThreadSubject } from '../domain/comment';
import { CommentRepository } from '../infrastructure/comment.repository';
import { COMMENT_EVENTS, commentEvent } from './comments.events';

/** Where a new comment goes: an existing thread, or a new thread on a record or a list entry. */
export type CommentTarget =
  | { readonly threadId: string }
  | { readonly record: { readonly object: string; readonly recordId: string } }
  | { readonly entry: { readonly list: string; readonly entryId: string } };

export interface CreateCommentCommand {
  readonly workspaceId: string;
  readonly actor: Actor;
  readonly target: CommentTarget;
  readonly content: string;
  /** The workspace member the comment is written as. */
  readonly authorMemberId: string;
  readonly createdAt: Date | null;
}

export function commentNotFound(commentId: string): NotFoundError {
  return new NotFoundError(`Comment with ID "${commentId}" not found.`);
}

/**
 * Writing comments. A comment on a record or an entry opens a new thread there; one on a
 * `thread_id` replies in it. Deleting a thread's first comment deletes the thread with every
 * reply. Each comment written or deleted records its event in the same transaction.
 */
@Injectable()
export class CommentCommands {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly comments: CommentRepository,
    private readonly records: RecordEngine,
    private readonly members: MemberDirectory,
    private readonly outbox: EventOutbox,
    @Optional() @Inject(TRASH_BIN) private readonly trash: TrashBin | null = null,
  ) {}

  async create(cmd: CreateCommentCommand): Promise<Comment> {
    const content = checkCommentContent(cmd.content);
    const id = newId();
    return this.transactions.run(async () => {
      const author = await this.members.findById(cmd.workspaceId, cmd.authorMemberId);
      if (!author) {
        throw new DomainError('value_not_found', `data.author.id: workspace member "${cmd.authorMemberId}" not found.`, { field: 'data.author.id' });
      }
      let threadId: string;
      if ('threadId' in cmd.target) {
        threadId = cmd.target.threadId;
        if (!(await this.comments.lockThread(cmd.workspaceId, threadId))) {
          throw new NotFoundError(`Thread with ID "${threadId}" not found (data.thread_id).`, { field: 'data.thread_id' });
        }
      } else {
        threadId = newId();
        await this.comments.insertThread(cmd.workspaceId, threadId, await this.subjectOf(cmd.workspaceId, cmd.target));
      }
      await this.comments.insertComment({
        workspaceId: cmd.workspaceId,
        id,
        threadId,
        contentPlaintext: content,
        author: { type: 'workspace-member', id: author.id },
        createdAt: cmd.createdAt,
      });
      const comment = await this.comments.findComment(cmd.workspaceId, id);
      if (!comment) throw new Error(`comment ${id} vanished after insert`);
      await this.outbox.record(commentEvent(COMMENT_EVENTS.created, comment, cmd.actor));
      return comment;
    });
  }

  async delete(workspaceId: string, commentId: string, actor: Actor): Promise<void> {
    await this.transactions.run(async () => {
      const comment = await this.comments.findComment(workspaceId, commentId);
      if (!comment) throw commentNotFound(commentId);
      if (!(await this.comments.lockThread(workspaceId, comment.threadId))) throw commentNotFound(commentId);
      // Kept before it goes: the thread's first comment takes the thread and its replies along (trash-plan.ts).
      await this.trash?.keep({ workspaceId, kind: 'comments', id: commentId, actor });
      let deleted: Comment[] = [comment];
      if ((await this.comments.headCommentId(workspaceId, comment.threadId)) === commentId) {
        deleted = await this.comments.deleteThread(workspaceId, comment.threadId);
      } else {
        await this.comments.deleteComment(workspaceId, commentId);
      }
      await this.outbox.record(...deleted.map((c) => commentEvent(COMMENT_EVENTS.deleted, c, actor)));
    });
  }

  private async subjectOf(workspaceId: string, target: Exclude<CommentTarget, { threadId: string }>): Promise<ThreadSubject> {
    if ('record' in target) {
      const object = await this.records.object(workspaceId, target.record.object).catch(rethrowAs('data.record.object'));
      if (!(await this.records.existingIds(workspaceId, object.id, [target.record.recordId])).has(target.record.recordId)) {
        throw new NotFoundError(`Record with ID "${target.record.recordId}" not found in object "${target.record.object}" (data.record.record_id).`, { field: 'data.record.record_id' });
      }
      return { objectId: object.id, recordId: target.record.recordId, entry: null };
    }
    const list = await this.records.list(workspaceId, target.entry.list).catch(rethrowAs('data.entry.list'));
    const entry = await this.records.entry(list, target.entry.entryId);
    const parent = entry?.parentRecordId ? await this.records.recordById(workspaceId, entry.parentRecordId) : null;
    if (!entry || !parent) {
      throw new NotFoundError(`Entry with ID "${target.entry.entryId}" not found in list "${target.entry.list}" (data.entry.entry_id).`, { field: 'data.entry.entry_id' });
    }
    return { objectId: parent.objectId, recordId: parent.recordId, entry: { listId: list.id, entryId: entry.id } };
  }
}

/** A container lookup's 404, with the body field that named it. */
function rethrowAs(field: string) {
  return (error: unknown): never => {
    if (error instanceof NotFoundError) throw new NotFoundError(`${error.message} (${field})`, { field });
    throw error;
  };
}
