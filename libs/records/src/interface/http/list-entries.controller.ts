import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put, UsePipes } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, EmptyResponse, type PathParams, RejectNulPipe, type ResolvesPathIds, ScopedOperation, validatedBatchBody } from '@workbase/shared/http';
import { writeScope } from '../../domain/write-scope';
import { NotFoundError, SCOPES } from '@workbase/shared/kernel';
import { ContainerResolver } from '@workbase/schema';
import { EntryService } from '../../application/entry.service';
import { DeleteRecordUseCase } from '../../application/delete-record.use-case';
import { EntryCreateRequest, EntryUpdateRequest } from './entry.requests';
import { EntryBatchRequest } from './batch.requests';
import { BATCH_MAX_OPERATIONS } from '../../domain/batch-operations';
import { EntryBatchEnvelope, toBatchItems } from './batch.responses';
import { WriteBatchUseCase } from '../../application/write-batch.use-case';
import { EntryEnvelope, EntryListEnvelope, toEntryResponse } from './entry.responses';
import { ViewableQueryRequest } from './record.requests';

const listParam = { name: 'list', description: 'List UUID or api_slug' };
const entryParam = { name: 'entry_id', description: 'Entry UUID' };
const entryIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Entry not found: entry_id must be a UUID.') });

const entryRead = [SCOPES.listEntryRead, SCOPES.listConfigurationRead] as const;
const entryWrite = [SCOPES.listEntryReadWrite, SCOPES.listConfigurationRead] as const;

@ApiTags('List entries')
@UsePipes(RejectNulPipe)
@Controller('v2/lists/:list/entries')
export class ListEntriesController implements ResolvesPathIds {
  constructor(
    private readonly containers: ContainerResolver,
    private readonly entries: EntryService,
    private readonly deletes: DeleteRecordUseCase,
    private readonly batches: WriteBatchUseCase,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    const container = await this.containers.list(auth.workspaceId, params.list!);
    if (params.entry_id !== undefined) await this.entries.get(container, (await entryIdPipe.transform(params.entry_id, { type: 'param' }))!);
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: entryWrite,
    summary: 'Create an entry',
    description: 'Adds a record of the list\'s parent object to the list.',
    params: [listParam],
    ok: EntryEnvelope,
  })
  async create(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Body() body: EntryCreateRequest): Promise<EntryEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    const entry = await this.entries.create(writeScope(auth, container), { parentRecordId: body.data.parent_record_id, parentObject: body.data.parent_object }, body.data.entry_values ?? {});
    return { data: toEntryResponse(entry) };
  }

  @Post('batch')
  @HttpCode(200)
  @ScopedOperation({
    scopes: entryWrite,
    summary: 'Write entries in a batch',
    description:
      'Up to 1,000 operations (`create`, `assert` by parent record, `update`, `delete`), applied in order in one transaction; each answered in its place as its single endpoint would answer it (`data`, or `error` with its status). ' +
      'Not atomic (default): a refused operation changes nothing and the others apply. `atomic: true`: all apply or none (400 naming the first refused index). ' +
      'Rate limit: one write per started 100 operations. An empty list or more than 1,000 operations: 400.',
    params: [listParam],
    ok: EntryBatchEnvelope,
  })
  @ApiBody({ type: EntryBatchRequest })
  async batch(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Body() raw: unknown): Promise<EntryBatchEnvelope> {
    const { container, parentObjectSlug } = await this.containers.listWithAttributes(auth.workspaceId, list);
    const body = await validatedBatchBody(EntryBatchRequest, raw, BATCH_MAX_OPERATIONS);
    const results = await this.batches.execute(writeScope(auth, container), 'entries', body.operations, { atomic: body.atomic ?? false });
    return { data: toBatchItems(results, (view) => toEntryResponse({ view, parentObjectSlug })) };
  }

  @Put()
  @ScopedOperation({
    scopes: entryWrite,
    summary: 'Assert an entry by parent record',
    description: 'Updates the entry of the parent record (multiselect values replaced), or creates one. Several entries of the parent: 400 `multiple_match_results`.',
    params: [listParam],
    ok: EntryEnvelope,
  })
  async assert(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Body() body: EntryCreateRequest): Promise<EntryEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    const entry = await this.entries.assertByParent(writeScope(auth, container), { parentRecordId: body.data.parent_record_id, parentObject: body.data.parent_object }, body.data.entry_values ?? {});
    return { data: toEntryResponse(entry) };
  }

  @Post('query')
  @HttpCode(200)
  @ScopedOperation({
    scopes: entryRead,
    summary: 'List entries',
    description: 'Same body as record queries; `path` filters may start with [list, "parent_record"]. Default limit 500, max 1000.',
    params: [listParam],
    ok: EntryListEnvelope,
  })
  async query(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Body() body: ViewableQueryRequest): Promise<EntryListEnvelope> {
    const { container, ...known } = await this.containers.listWithAttributes(auth.workspaceId, list);
    return { data: (await this.entries.query(container, { ...body, filterViewId: body.filter_view_id }, known)).map(toEntryResponse) };
  }

  @Get(':entry_id')
  @ScopedOperation({ scopes: entryRead, summary: 'Get an entry', params: [listParam, entryParam], ok: EntryEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Param('entry_id', entryIdPipe) entryId: string): Promise<EntryEnvelope> {
    const { container, ...known } = await this.containers.listWithAttributes(auth.workspaceId, list);
    return { data: toEntryResponse(await this.entries.get(container, entryId, known)) };
  }

  @Patch(':entry_id')
  @ScopedOperation({ scopes: entryWrite, summary: 'Update an entry (append multiselect values)', params: [listParam, entryParam], ok: EntryEnvelope })
  async patch(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Param('entry_id', entryIdPipe) entryId: string, @Body() body: EntryUpdateRequest): Promise<EntryEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    return { data: toEntryResponse(await this.entries.update(writeScope(auth, container), entryId, body.data.entry_values, 'append')) };
  }

  @Put(':entry_id')
  @ScopedOperation({ scopes: entryWrite, summary: 'Update an entry (overwrite multiselect values)', params: [listParam, entryParam], ok: EntryEnvelope })
  async put(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Param('entry_id', entryIdPipe) entryId: string, @Body() body: EntryUpdateRequest): Promise<EntryEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    return { data: toEntryResponse(await this.entries.update(writeScope(auth, container), entryId, body.data.entry_values, 'overwrite')) };
  }

  @Delete(':entry_id')
  @ScopedOperation({ scopes: entryWrite, summary: 'Delete an entry', params: [listParam, entryParam], ok: { type: EmptyResponse, description: '`{}`' } })
  async delete(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Param('entry_id', entryIdPipe) entryId: string): Promise<EmptyResponse> {
    const container = await this.containers.list(auth.workspaceId, list);
    await this.deletes.execute(writeScope(auth, container), entryId);
    return {};
  }
}
