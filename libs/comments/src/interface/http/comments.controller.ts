import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, UsePipes } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, EmptyBody, pageOf, RejectNulPipe, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES, ValidationError } from '@workbase/shared/kernel';
import { CommentCommands, type CommentTarget } from '../../application/comment.commands';
import { CommentQueries, type ThreadListSubject } from '../../application/comment.queries';
import { parseCommentCreatedAt } from '../../domain/comment';
import { CommentCreateRequest, ListThreadsQuery, THREADS_PAGE } from './comment.requests';
import { CommentEnvelope, ThreadEnvelope, ThreadListEnvelope, toCommentResponse, toThreadResponse } from './comment.responses';
import { requireSubjectScopes } from './scope-check';

const commentIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Comment not found: comment_id must be a UUID.') });
const threadIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Thread not found: thread_id must be a UUID.') });
const RECORD_SCOPES = [SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead];
const ENTRY_SCOPES = [SCOPES.listConfigurationRead, SCOPES.listEntryRead];

@ApiTags('Comments')
@UsePipes(RejectNulPipe)
@Controller('v2/comments')
export class CommentsController {
  constructor(
    private readonly commands: CommentCommands,
    private readonly queries: CommentQueries,
  ) {}

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: [SCOPES.commentReadWrite],
    summary: 'Create a comment',
    description:
      'Exactly one of `thread_id` (reply), `record` (new thread on a record; also needs `object_configuration:read` + `record_permission:read`) or `entry` (new thread on a ' +
      'list entry; also needs `list_configuration:read` + `list_entry:read`). `author` is a workspace member (default: the token\'s member; unknown: 400 `value_not_found`). ' +
      'An unknown thread, object, record, list or entry is a 404 naming the field. Records `comment.created`.',
    ok: CommentEnvelope,
  })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: CommentCreateRequest): Promise<CommentEnvelope> {
    const d = body.data;
    const given = (['thread_id', 'record', 'entry'] as const).filter((key) => d[key] !== undefined);
    if (given.length !== 1) {
      throw new ValidationError(`data: give exactly one of thread_id, record, entry${given.length > 1 ? ` (got ${given.join(', ')})` : ''}.`, { field: 'data.thread_id' });
    }
    let target: CommentTarget;
    if (d.record) {
      requireSubjectScopes(auth, RECORD_SCOPES);
      target = { record: { object: d.record.object, recordId: d.record.record_id.toLowerCase() } };
    } else if (d.entry) {
      requireSubjectScopes(auth, ENTRY_SCOPES);
      target = { entry: { list: d.entry.list, entryId: d.entry.entry_id.toLowerCase() } };
    } else {
      target = { threadId: (d.thread_id as string).toLowerCase() };
    }
    const comment = await this.commands.create({
      workspaceId: auth.workspaceId,
      actor: auth.actor,
      target,
      content: d.content,
      authorMemberId: d.author?.id.toLowerCase() ?? auth.memberId,
      createdAt: d.created_at === undefined ? null : parseCommentCreatedAt(d.created_at),
    });
    return { data: toCommentResponse(comment) };
  }

  @Get(':comment_id')
  @ScopedOperation({ scopes: [SCOPES.commentRead], summary: 'Get a comment', params: [{ name: 'comment_id', description: 'Comment UUID' }], ok: CommentEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('comment_id', commentIdPipe) commentId: string): Promise<CommentEnvelope> {
    return { data: toCommentResponse(await this.queries.comment(auth.workspaceId, commentId)) };
  }

  @Delete(':comment_id')
  @ScopedOperation({
    scopes: [SCOPES.commentReadWrite],
    summary: 'Delete a comment',
    description: "Deleting a thread's first comment deletes the whole thread. Records `comment.deleted` for every comment deleted.",
    params: [{ name: 'comment_id', description: 'Comment UUID' }],
    ok: { type: EmptyBody, description: '`{}`' },
  })
  async delete(@CurrentAuth() auth: AuthContext, @Param('comment_id', commentIdPipe) commentId: string): Promise<EmptyBody> {
    await this.commands.delete(auth.workspaceId, commentId, auth.actor);
    return {};
  }
}

@ApiTags('Comments')
@UsePipes(RejectNulPipe)
@Controller('v2/threads')
export class ThreadsController {
  constructor(private readonly queries: CommentQueries) {}

  @Get()
  @ScopedOperation({
    scopes: [SCOPES.commentRead],
    summary: 'List threads',
    description:
      'Threads with their comments, in (created_at, id) order; limit/offset (`limit` 1–50, default 10). `record_id` + `object`: the record\'s own threads (also needs ' +
      '`object_configuration:read` + `record_permission:read`); `entry_id` + `list`: the entry\'s (also needs `list_configuration:read` + `list_entry:read`); neither: ' +
      'every thread of the workspace. Unknown object, list, record or entry: 404.',
    ok: ThreadListEnvelope,
  })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListThreadsQuery): Promise<ThreadListEnvelope> {
    pairOrNeither(query.record_id, 'record_id', query.object, 'object');
    pairOrNeither(query.entry_id, 'entry_id', query.list, 'list');
    if (query.record_id !== undefined && query.entry_id !== undefined) throw new ValidationError('entry_id: give record_id or entry_id, not both.', { field: 'entry_id' });
    let subject: ThreadListSubject = null;
    if (query.record_id && query.object) {
      requireSubjectScopes(auth, RECORD_SCOPES);
      subject = { object: query.object, recordId: query.record_id.toLowerCase() };
    } else if (query.entry_id && query.list) {
      requireSubjectScopes(auth, ENTRY_SCOPES);
      subject = { list: query.list, entryId: query.entry_id.toLowerCase() };
    }
    const threads = await this.queries.threads(auth.workspaceId, subject, pageOf(query, THREADS_PAGE.default));
    return { data: threads.map(toThreadResponse) };
  }

  @Get(':thread_id')
  @ScopedOperation({
    scopes: [SCOPES.commentRead],
    summary: 'Get a thread',
    description: 'The thread and all its comments, oldest first.',
    params: [{ name: 'thread_id', description: 'Thread UUID' }],
    ok: ThreadEnvelope,
  })
  async get(@CurrentAuth() auth: AuthContext, @Param('thread_id', threadIdPipe) threadId: string): Promise<ThreadEnvelope> {
    return { data: toThreadResponse(await this.queries.thread(auth.workspaceId, threadId)) };
  }
}

function pairOrNeither(a: unknown, aName: string, b: unknown, bName: string): void {
  if ((a === undefined) !== (b === undefined)) {
    const missing = a === undefined ? aName : bName;
    throw new ValidationError(`${missing}: ${aName} and ${bName} must be given together.`, { field: missing });
  }
}
