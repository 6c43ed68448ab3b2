import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiPayloadTooLargeResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, type AuthContext, CurrentAuth, EmptyBody, pageOf, type PathParams, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES, ValidationError } from '@workbase/shared/kernel';
import { CreateNoteUseCase } from '../../application/create-note.use-case';
import { DeleteNoteUseCase } from '../../application/delete-note.use-case';
import { NoteQueries } from '../../application/note.queries';
import { UpdateNoteUseCase } from '../../application/update-note.use-case';
import { ListNotesQuery, NOTES_PAGE, NoteCreateRequest, NoteUpdateRequest } from './note.requests';
import { NoteEnvelope, NoteListEnvelope, toNoteResponse } from './note.responses';

const noteIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Note not found: note_id must be a UUID.') });
const noteParam = { name: 'note_id', description: 'Note UUID' };
const read = [SCOPES.noteRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead];
const write = [SCOPES.noteReadWrite, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead];
const tooLarge = { type: ApiErrorResponse, description: '`validation_type` (413): `data.content` is larger than 1 MiB' };

@ApiTags('Notes')
@Controller('v2/notes')
export class NotesController implements ResolvesPathIds {
  constructor(
    private readonly queries: NoteQueries,
    private readonly createNote: CreateNoteUseCase,
    private readonly updateNote: UpdateNoteUseCase,
    private readonly deleteNote: DeleteNoteUseCase,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    await this.queries.get(auth.workspaceId, (await noteIdPipe.transform(params.note_id!, { type: 'param' }))!);
  }

  @Get()
  @ScopedOperation({
    scopes: read,
    summary: 'List notes',
    description:
      'Limit/offset pagination in (created_at, id) order: `limit` 1–50 (default 10), `offset` from 0; next offset = offset + limit; a page shorter than `limit` is the last. ' +
      '`parent_object` alone lists the notes on that object\'s records; `parent_record_id` needs `parent_object` (else 400). An unknown `parent_object` is a 404.',
    ok: NoteListEnvelope,
  })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListNotesQuery): Promise<NoteListEnvelope> {
    if (query.parent_record_id !== undefined && query.parent_object === undefined) {
      throw new ValidationError('parent_object: is required with parent_record_id.', { field: 'parent_object' });
    }
    const { limit, offset } = pageOf(query, NOTES_PAGE.default);
    const notes = await this.queries.list(auth.workspaceId, { parentObject: query.parent_object, parentRecordId: query.parent_record_id?.toLowerCase(), limit, offset });
    return { data: notes.map(toNoteResponse) };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: write,
    summary: 'Create a note',
    description:
      'A note on a record. `content` is plaintext or markdown (`format`); both forms are kept. Records `note.created` with `parent_object_id` and `parent_record_id`. ' +
      'An unknown parent object or record is a 404; an unknown `meeting_id` a 400 `value_not_found`.',
    ok: NoteEnvelope,
  })
  @ApiPayloadTooLargeResponse(tooLarge)
  async create(@CurrentAuth() auth: AuthContext, @Body() body: NoteCreateRequest): Promise<NoteEnvelope> {
    const d = body.data;
    const note = await this.createNote.execute({
      workspaceId: auth.workspaceId,
      actor: auth.actor,
      parentObject: d.parent_object,
      parentRecordId: d.parent_record_id.toLowerCase(),
      title: d.title,
      format: d.format,
      content: d.content,
      createdAt: d.created_at ?? undefined,
      meetingId: d.meeting_id?.toLowerCase() ?? null,
    });
    return { data: toNoteResponse(note) };
  }

  @Get(':note_id')
  @ScopedOperation({ scopes: read, summary: 'Get a note', params: [noteParam], ok: NoteEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('note_id', noteIdPipe) noteId: string): Promise<NoteEnvelope> {
    return { data: toNoteResponse(await this.queries.get(auth.workspaceId, noteId)) };
  }

  @Patch(':note_id')
  @ScopedOperation({
    scopes: write,
    summary: 'Update a note',
    description: 'Changes `title` and/or `content` (with `format`). Records `note.updated` when the title changed and `note-content.updated` when the content changed.',
    params: [noteParam],
    ok: NoteEnvelope,
  })
  @ApiPayloadTooLargeResponse(tooLarge)
  async update(@CurrentAuth() auth: AuthContext, @Param('note_id', noteIdPipe) noteId: string, @Body() body: NoteUpdateRequest): Promise<NoteEnvelope> {
    const d = body.data;
    if (d.content !== undefined && d.format === undefined) throw new ValidationError('data.format: is required with data.content.', { field: 'data.format' });
    if (d.format !== undefined && d.content === undefined) throw new ValidationError('data.content: is required with data.format.', { field: 'data.content' });
    if (d.title === undefined && d.content === undefined) throw new ValidationError('data: give title, or content with format.', { field: 'data' });
    const note = await this.updateNote.execute({
      workspaceId: auth.workspaceId,
      actor: auth.actor,
      noteId,
      title: d.title,
      content: d.content !== undefined && d.format !== undefined ? { format: d.format, content: d.content } : undefined,
    });
    return { data: toNoteResponse(note) };
  }

  @Delete(':note_id')
  @ScopedOperation({
    scopes: [SCOPES.noteReadWrite],
    summary: 'Delete a note',
    description: 'Records `note.deleted` with `parent_object_id` and `parent_record_id`.',
    params: [noteParam],
    ok: { type: EmptyBody, description: '`{}`' },
  })
  async delete(@CurrentAuth() auth: AuthContext, @Param('note_id', noteIdPipe) noteId: string): Promise<EmptyBody> {
    await this.deleteNote.execute(auth.workspaceId, noteId, auth.actor);
    return {};
  }
}
