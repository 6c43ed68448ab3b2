import { Controller, Delete, Get, HttpCode, Inject, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiPreconditionFailedResponse, ApiTags } from '@nestjs/swagger';
import { ContainerResolver } from '@workbase/schema';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ApiErrorResponse, type AuthContext, CurrentAuth, CursorCodec, EmptyBody, RequireAnyScope, ScopedOperation } from '@workbase/shared/http';
import { ForbiddenError, grants, NotFoundError, type Scope, SCOPES, TRASH_KINDS, type TrashKind, ValidationError } from '@workbase/shared/kernel';
import { TrashCommands } from '../../application/trash.commands';
import { TrashQueries } from '../../application/trash.queries';
import { ListTrashQuery, TRASH_PAGE } from './trash.requests';
import { TrashPageEnvelope, toTrashItemResponse } from './trash.responses';

const CURSOR_KIND = 'trash';
const idPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Not in the trash: id must be a UUID.', { field: 'id' }) });
const idParam = { name: 'id', description: 'The deleted item’s id (record, entry, note, task or comment id)' };

/** The scopes of each kind: those of its own endpoints (reading the trash needs the read ones, restoring and purging the write ones). */
const KIND_SCOPES: Readonly<Record<TrashKind, { read: readonly Scope[]; write: readonly Scope[] }>> = {
  records: { read: [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead], write: [SCOPES.recordPermissionReadWrite, SCOPES.objectConfigurationRead] },
  entries: { read: [SCOPES.listEntryRead, SCOPES.listConfigurationRead], write: [SCOPES.listEntryReadWrite, SCOPES.listConfigurationRead] },
  notes: { read: [SCOPES.noteRead], write: [SCOPES.noteReadWrite] },
  tasks: { read: [SCOPES.taskRead], write: [SCOPES.taskReadWrite] },
  comments: { read: [SCOPES.commentRead], write: [SCOPES.commentReadWrite] },
};
const ANY_READ = [...new Set(TRASH_KINDS.flatMap((kind) => KIND_SCOPES[kind].read.slice(0, 1)))];
const ANY_WRITE = [...new Set(TRASH_KINDS.flatMap((kind) => KIND_SCOPES[kind].write.slice(0, 1)))];
const RESTORE = 'Puts the item back with its id and everything that went with it (a record: its entries, notes, comment threads, task and meeting links and files), opens again the record references the delete closed where their holder has room, and records the `*.created` event of each item that came back. ';
const RESTORE_CONFLICT = '`uniqueness_conflict`: a unique value of the item now belongs to another record (the message names the attribute and the record); nothing was restored';
const PARENT_MISSING = { type: ApiErrorResponse, description: '`precondition_failed`: what the item hangs off (its object or list, parent record, thread) is gone or itself in the trash: restore that first' };
const PURGE = 'Removes the item from the trash for good (what it held cannot be restored any more).';

function requireKindScopes(auth: AuthContext, required: readonly Scope[]): void {
  const missing = required.filter((scope) => !grants(auth.scopes, scope));
  if (missing.length > 0) {
    throw new ForbiddenError(`You do not have the necessary permissions: this request needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`, { missing_scopes: missing });
  }
}

/**
 * `/v2/trash` (Workbase extension): what DELETE removed, restorable for TRASH_RETENTION_DAYS. Each
 * kind has its own restore and purge routes, so that each declares its kind's scopes; an unknown
 * kind is a 400 naming `kind`.
 */
@ApiTags('Trash')
@Controller('v2/trash')
export class TrashController {
  constructor(
    private readonly queries: TrashQueries,
    private readonly commands: TrashCommands,
    private readonly containers: ContainerResolver,
    private readonly cursors: CursorCodec,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @RequireAnyScope(...ANY_READ)
  @ApiOperation({
    summary: 'List the trash',
    description:
      '**Workbase extension.** Deleted items, newest first, with `deleted_at`, `deleted_by` and `expires_at`. Give exactly one of `object` (its deleted records), `list` (its deleted entries) or `kind`. ' +
      'Each needs the read scopes of its kind (`record_permission:read` + `object_configuration:read`, `list_entry:read` + `list_configuration:read`, `note:read`, `task:read`, `comment:read`). ' +
      `Cursor pagination: pass \`pagination.next_cursor\` back as \`cursor\` with the same filter and \`limit\` (1–${TRASH_PAGE.max}, default ${TRASH_PAGE.default}).`,
  })
  @ApiOkResponse({ type: TrashPageEnvelope })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: 'Not exactly one of object, list, kind; a bad limit; a cursor that is malformed or from another filter' })
  @ApiNotFoundResponse({ type: ApiErrorResponse, description: 'No such object or list in the workspace' })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListTrashQuery): Promise<TrashPageEnvelope> {
    const given = (['object', 'list', 'kind'] as const).filter((name) => query[name] !== undefined);
    if (given.length !== 1) throw new ValidationError(`${given[1] ?? 'kind'}: give exactly one of object, list, kind.`, { field: given[1] ?? 'kind' });
    const kind: TrashKind = query.object !== undefined ? 'records' : query.list !== undefined ? 'entries' : query.kind!;
    requireKindScopes(auth, KIND_SCOPES[kind].read);
    const containerId =
      query.object !== undefined ? (await this.containers.object(auth.workspaceId, query.object)).id : query.list !== undefined ? (await this.containers.list(auth.workspaceId, query.list)).id : undefined;
    const limit = query.limit ?? TRASH_PAGE.default;
    const binding = { workspace: auth.workspaceId, kind, container: containerId ?? null, limit };
    const after = query.cursor === undefined ? null : this.cursors.decode(CURSOR_KIND, binding, query.cursor);
    if (after && (typeof after.at !== 'string' || typeof after.id !== 'string')) throw new ValidationError('cursor: the cursor is malformed.', { field: 'cursor' });
    const page = await this.queries.page(auth.workspaceId, { kind, containerId }, limit, after ? { deletedAt: after.at as string, id: after.id as string } : null);
    const last = page.items.at(-1);
    return {
      data: page.items.map((item) => toTrashItemResponse(item, this.config.trashRetentionDays)),
      pagination: { next_cursor: page.hasMore && last ? this.cursors.encode(CURSOR_KIND, binding, { at: last.deletedAt, id: last.id }) : null },
    };
  }

  @Post('records/:id/restore')
  @ApiPreconditionFailedResponse(PARENT_MISSING)
  @HttpCode(200)
  @ScopedOperation({ scopes: [...KIND_SCOPES.records.write], summary: 'Restore a deleted record', description: RESTORE + 'Records `record.created`.', params: [idParam], ok: { type: EmptyBody, description: '`{}`' }, conflict: RESTORE_CONFLICT })
  async restoreRecord(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.restore(auth, 'records', id);
  }

  @Post('entries/:id/restore')
  @ApiPreconditionFailedResponse(PARENT_MISSING)
  @HttpCode(200)
  @ScopedOperation({ scopes: [...KIND_SCOPES.entries.write], summary: 'Restore a deleted list entry', description: RESTORE + 'Records `list-entry.created`; 412 when its parent record is gone.', params: [idParam], ok: { type: EmptyBody, description: '`{}`' }, conflict: RESTORE_CONFLICT })
  async restoreEntry(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.restore(auth, 'entries', id);
  }

  @Post('notes/:id/restore')
  @ApiPreconditionFailedResponse(PARENT_MISSING)
  @HttpCode(200)
  @ScopedOperation({ scopes: [...KIND_SCOPES.notes.write], summary: 'Restore a deleted note', description: RESTORE + 'Records `note.created`; 412 when its record is gone.', params: [idParam], ok: { type: EmptyBody, description: '`{}`' } })
  async restoreNote(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.restore(auth, 'notes', id);
  }

  @Post('tasks/:id/restore')
  @HttpCode(200)
  @ScopedOperation({ scopes: [...KIND_SCOPES.tasks.write], summary: 'Restore a deleted task', description: RESTORE + 'Links to records that are gone stay out. Records `task.created`.', params: [idParam], ok: { type: EmptyBody, description: '`{}`' } })
  async restoreTask(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.restore(auth, 'tasks', id);
  }

  @Post('comments/:id/restore')
  @ApiPreconditionFailedResponse(PARENT_MISSING)
  @HttpCode(200)
  @ScopedOperation({ scopes: [...KIND_SCOPES.comments.write], summary: 'Restore a deleted comment', description: RESTORE + 'A thread’s first comment brings its thread back. Records `comment.created`; 412 when its thread or record is gone.', params: [idParam], ok: { type: EmptyBody, description: '`{}`' } })
  async restoreComment(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.restore(auth, 'comments', id);
  }

  @Delete('records/:id')
  @ScopedOperation({ scopes: [...KIND_SCOPES.records.write], summary: 'Remove a deleted record for good', description: PURGE, params: [idParam], ok: { type: EmptyBody, description: '`{}`' } })
  async purgeRecord(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.purge(auth, 'records', id);
  }

  @Delete('entries/:id')
  @ScopedOperation({ scopes: [...KIND_SCOPES.entries.write], summary: 'Remove a deleted list entry for good', description: PURGE, params: [idParam], ok: { type: EmptyBody, description: '`{}`' } })
  async purgeEntry(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.purge(auth, 'entries', id);
  }

  @Delete('notes/:id')
  @ScopedOperation({ scopes: [...KIND_SCOPES.notes.write], summary: 'Remove a deleted note for good', description: PURGE, params: [idParam], ok: { type: EmptyBody, description: '`{}`' } })
  async purgeNote(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.purge(auth, 'notes', id);
  }

  @Delete('tasks/:id')
  @ScopedOperation({ scopes: [...KIND_SCOPES.tasks.write], summary: 'Remove a deleted task for good', description: PURGE, params: [idParam], ok: { type: EmptyBody, description: '`{}`' } })
  async purgeTask(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.purge(auth, 'tasks', id);
  }

  @Delete('comments/:id')
  @ScopedOperation({ scopes: [...KIND_SCOPES.comments.write], summary: 'Remove a deleted comment for good', description: PURGE, params: [idParam], ok: { type: EmptyBody, description: '`{}`' } })
  async purgeComment(@CurrentAuth() auth: AuthContext, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    return this.purge(auth, 'comments', id);
  }

  // Registered after the kinds' routes, so that only an unknown kind reaches these.
  @Post(':kind/:id/restore')
  @RequireAnyScope(...ANY_WRITE)
  @ApiOperation({ summary: 'Restore an item of an unknown kind', description: `Always a 400 naming \`kind\`: the kinds are ${TRASH_KINDS.join(', ')}.` })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: '`kind` is not one of the trash kinds' })
  unknownRestore(@Param('kind') kind: string): never {
    throw unknownKind(kind);
  }

  @Delete(':kind/:id')
  @RequireAnyScope(...ANY_WRITE)
  @ApiOperation({ summary: 'Remove an item of an unknown kind', description: `Always a 400 naming \`kind\`: the kinds are ${TRASH_KINDS.join(', ')}.` })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: '`kind` is not one of the trash kinds' })
  unknownPurge(@Param('kind') kind: string): never {
    throw unknownKind(kind);
  }

  private async restore(auth: AuthContext, kind: TrashKind, id: string): Promise<EmptyBody> {
    await this.commands.restore(auth.workspaceId, kind, id.toLowerCase(), auth.actor);
    return {};
  }

  private async purge(auth: AuthContext, kind: TrashKind, id: string): Promise<EmptyBody> {
    await this.commands.purge(auth.workspaceId, kind, id.toLowerCase());
    return {};
  }
}

function unknownKind(kind: string): ValidationError {
  return new ValidationError(`kind: "${kind}" is not a kind of the trash; use one of ${TRASH_KINDS.join(', ')}.`, { field: 'kind' });
}
