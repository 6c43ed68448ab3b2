import { Injectable } from '@nestjs/common';
import { RecordEngine } from '@workbase/records';
import { NotFoundError } from '@workbase/shared/kernel';
import type { Comment, Thread } from '../domain/comment';
import { CommentRepository, type ThreadFilter } from '../infrastructure/comment.repository';
import { commentNotFound } from './comment.commands';

export type ThreadListSubject = { readonly object: string; readonly recordId: string } | { readonly list: string; readonly entryId: string } | null;

@Injectable()
export class CommentQueries {
  constructor(
    private readonly comments: CommentRepository,
    private readonly records: RecordEngine,
  ) {}

  async comment(workspaceId: string, commentId: string): Promise<Comment> {
    const comment = await this.comments.findComment(workspaceId, commentId);
    if (!comment) throw commentNotFound(commentId);
    return comment;
  }

  async thread(workspaceId: string, threadId: string): Promise<Thread> {
    const thread = await this.comments.findThread(workspaceId, threadId);
    if (!thread) throw new NotFoundError(`Thread with ID "${threadId}" not found.`);
    return thread;
  }

  /** Threads of a record or an entry (an unknown object, list, record or entry is a 404), or of the whole workspace. */
  async threads(workspaceId: string, subject: ThreadListSubject, page: { limit: number; offset: number }): Promise<Thread[]> {
    let filter: ThreadFilter = null;
    if (subject && 'object' in subject) {
      const object = await this.records.object(workspaceId, subject.object);
      if (!(await this.records.existingIds(workspaceId, object.id, [subject.recordId])).has(subject.recordId)) {
        throw new NotFoundError(`Record with ID "${subject.recordId}" not found in object "${subject.object}".`);
      }
      filter = { recordId: subject.recordId };
    } else if (subject) {
      const list = await this.records.list(workspaceId, subject.list);
      if (!(await this.records.entry(list, subject.entryId))) throw new NotFoundError(`Entry with ID "${subject.entryId}" not found in list "${subject.list}".`);
      filter = { entryId: subject.entryId };
    }
    return this.comments.listThreads(workspaceId, filter, page);
  }
}
