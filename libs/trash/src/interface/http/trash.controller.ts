import { Controller, Delete, Get, HttpCode, Inject, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiPreconditionFailedResponse, ApiTags } from '@nestjs/swagger';
import { ContainerResolver } from '@workbase/schema';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ApiErrorResponse, ApiStandardErrors, type AuthContext, CurrentAuth, CursorCodec, EmptyBody, RequireAnyScope } from '@workbase/shared/http';
import { ForbiddenError, grants, NotFoundError, type Scope, SCOPES, TRASH_KINDS, type TrashKind, ValidationError } from '@workbase/shared/kernel';
import { TrashCommands } from '../../application/trash.commands';
import { TrashQueries } from '../../application/trash.queries';
import { ListTrashQuery, TRASH_PAGE } from './trash.requests';
import { TrashPageEnvelope, toTrashItemResponse } from './trash.responses';

const CURSOR_KIND = 'trash';
const idPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Not in the trash: id must be a UUID.', { field: 'id' }) });
const idParam = { name: 'id', description: 'The deleted item’s id (record, entry, note, task or comment id)' };
const kindParam = { name: 'kind', enum: [...TRASH_KINDS], description: 'What was deleted: records, entries, notes, tasks or comments' };

/** The scopes of each kind: those of its own endpoints (reading the trash needs the read ones, restoring and purging the write ones). */
const KIND_SCOPES: Readonly<Record<TrashKind, { read: readonly Scope[]; write: readonly Scope[] }>> = {
  records: { read: [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead], write: [SCOPES.recordPermissionReadWrite, SCOPES.objectConfigurationRead] },
  entries: { read: [SCOPES.listEntryRead, SCOPES.listConfigurationRead], write: [SCOPES.listEntryReadWrite, SCOPES.listConfigurationRead] },
  notes: { read: [SCOPES.noteRead], write: [SCOPES.noteReadWrite] },
  tasks: { read: [SCOPES.taskRead], write: [SCOPES.taskReadWrite] },
  comments: { read: [SCOPES.commentRead], write: [SCOPES.commentReadWrite] },
};
const KIND_SCOPES_DOC = (access: 'read' | 'write') =>
  `Needs the ${access === 'read' ? 'read' : 'write'} scopes of the kind: ${TRASH_KINDS.map((kind) => `\`${kind}\` ${KIND_SCOPES[kind][access].join(' + ')}`).join('; ')}.`;
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
 * `/v2/trash` (Workbase extension): what DELETE removed, restorable for TRASH_RETENTION_DAYS. The
 * guard lets in a token with one of the kinds' scopes; each handler then requires the scopes of
 * the kind the request names (those of the kind's own endpoints), and an unknown kind is a 400
 * naming `kind`.
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

  @Post(':kind/:id/restore')
  @HttpCode(200)
  @RequireAnyScope(...ANY_WRITE)
  @ApiOperation({ summary: 'Restore a deleted item', description: `**Workbase extension.** ${RESTORE}${KIND_SCOPES_DOC('write')}` })
  @ApiParam(kindParam)
  @ApiParam(idParam)
  @ApiBody({ type: EmptyBody, required: false, description: 'No input: `{}` or nothing' })
  @ApiOkResponse({ type: EmptyBody, description: '`{}`' })
  @ApiStandardErrors()
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: '`kind` is not one of the trash kinds' })
  @ApiConflictResponse({ type: ApiErrorResponse, description: RESTORE_CONFLICT })
  @ApiPreconditionFailedResponse(PARENT_MISSING)
  async restore(@CurrentAuth() auth: AuthContext, @Param('kind') kindParamValue: string, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    const kind = trashKind(kindParamValue);
    requireKindScopes(auth, KIND_SCOPES[kind].write);
    await this.commands.restore(auth.workspaceId, kind, id.toLowerCase(), auth.actor);
    return {};
  }

  @Delete(':kind/:id')
  @RequireAnyScope(...ANY_WRITE)
  @ApiOperation({ summary: 'Remove a deleted item for good', description: `**Workbase extension.** ${PURGE} ${KIND_SCOPES_DOC('write')}` })
  @ApiParam(kindParam)
  @ApiParam(idParam)
  @ApiOkResponse({ type: EmptyBody, description: '`{}`' })
  @ApiStandardErrors()
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: '`kind` is not one of the trash kinds' })
  async purge(@CurrentAuth() auth: AuthContext, @Param('kind') kindParamValue: string, @Param('id', idPipe) id: string): Promise<EmptyBody> {
    const kind = trashKind(kindParamValue);
    requireKindScopes(auth, KIND_SCOPES[kind].write);
    await this.commands.purge(auth.workspaceId, kind, id.toLowerCase());
    return {};
  }
}

/** The path's `{kind}`, or a 400 naming it. */
function trashKind(kind: string): TrashKind {
  if ((TRASH_KINDS as readonly string[]).includes(kind)) return kind as TrashKind;
  throw new ValidationError(`kind: "${kind}" is not a kind of the trash; use one of ${TRASH_KINDS.join(', ')}.`, { field: 'kind' });
}
