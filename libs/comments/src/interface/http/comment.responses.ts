import { ApiProperty } from '@nestjs/swagger';
import { ActorResponse, WrappedData, WrappedList } from '@workbase/shared/http';
import type { Comment, Thread } from '../../domain/comment';

class CommentId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() comment_id!: string;
}

class ThreadId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() thread_id!: string;
}

class CommentEntry {
  @ApiProperty() list_id!: string;
  @ApiProperty() entry_id!: string;
}

class CommentRecord {
  @ApiProperty() object_id!: string;
  @ApiProperty() record_id!: string;
}

class ResolverResponse {
  @ApiProperty({ type: String, nullable: true, example: 'workspace-member' }) type!: string | null;
  @ApiProperty({ type: String, nullable: true }) id!: string | null;
}

export class CommentResponse {
  @ApiProperty({ type: CommentId }) id!: CommentId;
  @ApiProperty() thread_id!: string;
  @ApiProperty() content_plaintext!: string;
  @ApiProperty({ type: CommentEntry, nullable: true, description: 'The entry of a comment on a list entry; null on records' }) entry!: CommentEntry | null;
  @ApiProperty({ type: CommentRecord, description: "The record; for a comment on an entry, the entry's parent record" }) record!: CommentRecord;
  @ApiProperty({ type: String, nullable: true, description: 'Always null: no endpoint resolves comments' }) resolved_at!: string | null;
  @ApiProperty({ type: ResolverResponse, description: '`{type: null, id: null}` while unresolved' }) resolved_by!: ResolverResponse;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: ActorResponse }) author!: ActorResponse;
}

export class ThreadResponse {
  @ApiProperty({ type: ThreadId }) id!: ThreadId;
  @ApiProperty({ type: [CommentResponse], description: 'Oldest first; the first is the head' }) comments!: CommentResponse[];
  @ApiProperty() created_at!: string;
}

export class CommentEnvelope extends WrappedData(CommentResponse) {}

export class ThreadEnvelope extends WrappedData(ThreadResponse) {}

export class ThreadListEnvelope extends WrappedList(ThreadResponse) {}

export function toCommentResponse(comment: Comment): CommentResponse {
  const { subject } = comment;
  return {
    id: { workspace_id: comment.workspaceId, comment_id: comment.id },
    thread_id: comment.threadId,
    content_plaintext: comment.contentPlaintext,
    entry: subject.entry ? { list_id: subject.entry.listId, entry_id: subject.entry.entryId } : null,
    record: { object_id: subject.objectId, record_id: subject.recordId },
    resolved_at: comment.resolvedAt?.toISOString() ?? null,
    resolved_by: { type: comment.resolvedBy?.type ?? null, id: comment.resolvedBy?.id ?? null },
    created_at: comment.createdAt.toISOString(),
    author: { type: comment.author.type, id: comment.author.id },
  };
}

export function toThreadResponse(thread: Thread): ThreadResponse {
  return {
    id: { workspace_id: thread.workspaceId, thread_id: thread.id },
    comments: thread.comments.map(toCommentResponse),
    created_at: thread.createdAt.toISOString(),
  };
}
