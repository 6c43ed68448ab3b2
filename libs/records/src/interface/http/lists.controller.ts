import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put, UsePipes } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiStandardErrors, type AuthContext, CurrentAuth, EmptyResponse, RejectNulPipe, RequireScopes } from '@workbase/shared/http';
import { writeScope } from '../../domain/write-scope';
import { NotFoundError, SCOPES } from '@workbase/shared/kernel';
import { ContainerResolver } from '../../application/container-resolver';
import { EntryService } from '../../application/entry.service';
import { ListCatalog } from '../../application/list.catalog';
import { RecordService } from '../../application/record.service';
import { ObjectRepository } from '../../infrastructure/object.repository';
import type { ListWithAccess } from '../../infrastructure/list.repository';
import { EntryCreateRequest, EntryUpdateRequest, ListCreateRequest, ListUpdateRequest } from './list.requests';
import { EntryEnvelope, EntryListEnvelope, ListEnvelope, ListListEnvelope, toEntryResponse, toListResponse } from './list.responses';
import { RecordQueryRequest } from './record.requests';

const listParam = { name: 'list', description: 'List UUID or api_slug' };
const entryParam = { name: 'entry_id', description: 'Entry UUID' };
const entryIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Entry not found: entry_id must be a UUID.') });

@ApiTags('Lists')
@UsePipes(RejectNulPipe)
@Controller('v2/lists')
export class ListsController {
  constructor(
    private readonly lists: ListCatalog,
    private readonly objects: ObjectRepository,
  ) {}

  private async present(list: ListWithAccess) {
    return toListResponse(list, (await this.objects.findBySlugOrId(list.workspaceId, list.parentObjectId))?.apiSlug ?? list.parentObjectId);
  }

  @Get()
  @RequireScopes(SCOPES.listConfigurationRead)
  @ApiOperation({ summary: 'List lists' })
  @ApiOkResponse({ type: ListListEnvelope })
  async list(@CurrentAuth() auth: AuthContext): Promise<ListListEnvelope> {
    return { data: await Promise.all((await this.lists.list(auth.workspaceId)).map((list) => this.present(list))) };
  }

  @Post()
  @HttpCode(200)
  @RequireScopes(SCOPES.listConfigurationReadWrite)
  @ApiOperation({ summary: 'Create a list' })
  @ApiOkResponse({ type: ListEnvelope })
  @ApiStandardErrors()
  @ApiConflictResponse({ type: ApiErrorResponse, description: '`slug_conflict`' })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: ListCreateRequest): Promise<ListEnvelope> {
    const d = body.data;
    const list = await this.lists.create(
      auth.workspaceId,
      { name: d.name, apiSlug: d.api_slug, parentObject: d.parent_object, workspaceAccess: d.workspace_access, workspaceMemberAccess: d.workspace_member_access },
      auth.actor,
    );
    return { data: await this.present(list) };
  }

  @Get(':list')
  @RequireScopes(SCOPES.listConfigurationRead)
  @ApiOperation({ summary: 'Get a list' })
  @ApiParam(listParam)
  @ApiOkResponse({ type: ListEnvelope })
  @ApiStandardErrors()
  async get(@CurrentAuth() auth: AuthContext, @Param('list') list: string): Promise<ListEnvelope> {
    return { data: await this.present(await this.lists.get(auth.workspaceId, list)) };
  }

  @Patch(':list')
  @RequireScopes(SCOPES.listConfigurationReadWrite)
  @ApiOperation({ summary: 'Update a list' })
  @ApiParam(listParam)
  @ApiOkResponse({ type: ListEnvelope })
  @ApiStandardErrors()
  async update(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Body() body: ListUpdateRequest): Promise<ListEnvelope> {
    const d = body.data;
    const updated = await this.lists.update(
      auth.workspaceId,
      list,
      { name: d.name, apiSlug: d.api_slug, parentObject: d.parent_object, workspaceAccess: d.workspace_access, workspaceMemberAccess: d.workspace_member_access },
      auth.actor,
    );
    return { data: await this.present(updated) };
  }
}

const entryRead = [SCOPES.listEntryRead, SCOPES.listConfigurationRead] as const;
const entryWrite = [SCOPES.listEntryReadWrite, SCOPES.listConfigurationRead] as const;

@ApiTags('List entries')
@UsePipes(RejectNulPipe)
@Controller('v2/lists/:list/entries')
export class ListEntriesController {
  constructor(
    private readonly containers: ContainerResolver,
    private readonly entries: EntryService,
    private readonly records: RecordService,
  ) {}

  @Post()
  @HttpCode(200)
  @RequireScopes(...entryWrite)
  @ApiOperation({ summary: 'Create an entry', description: 'Adds a record of the list\'s parent object to the list.' })
  @ApiParam(listParam)
  @ApiOkResponse({ type: EntryEnvelope })
  @ApiStandardErrors()
  async create(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Body() body: EntryCreateRequest): Promise<EntryEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    const entry = await this.entries.create(writeScope(auth, container), { parentRecordId: body.data.parent_record_id, parentObject: body.data.parent_object }, body.data.entry_values ?? {});
    return { data: toEntryResponse(entry) };
  }

  @Put()
  @RequireScopes(...entryWrite)
  @ApiOperation({
    summary: 'Assert an entry by parent record',
    description: 'Updates the entry of the parent record (multiselect values replaced), or creates one. Several entries of the parent: 400 `multiple_match_results`.',
  })
  @ApiParam(listParam)
  @ApiOkResponse({ type: EntryEnvelope })
  @ApiStandardErrors()
  async assert(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Body() body: EntryCreateRequest): Promise<EntryEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    const entry = await this.entries.assertByParent(writeScope(auth, container), { parentRecordId: body.data.parent_record_id, parentObject: body.data.parent_object }, body.data.entry_values ?? {});
    return { data: toEntryResponse(entry) };
  }

  @Post('query')
  @HttpCode(200)
  @RequireScopes(...entryRead)
  @ApiOperation({ summary: 'List entries', description: 'Same body as record queries; `path` filters may start with [list, "parent_record"]. Default limit 500, max 1000.' })
  @ApiParam(listParam)
  @ApiOkResponse({ type: EntryListEnvelope })
  @ApiStandardErrors()
  async query(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Body() body: RecordQueryRequest): Promise<EntryListEnvelope> {
    const { container, ...known } = await this.containers.listWithAttributes(auth.workspaceId, list);
    return { data: (await this.entries.query(container, body, known)).map(toEntryResponse) };
  }

  @Get(':entry_id')
  @RequireScopes(...entryRead)
  @ApiOperation({ summary: 'Get an entry' })
  @ApiParam(listParam)
  @ApiParam(entryParam)
  @ApiOkResponse({ type: EntryEnvelope })
  @ApiStandardErrors()
  async get(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Param('entry_id', entryIdPipe) entryId: string): Promise<EntryEnvelope> {
    const { container, ...known } = await this.containers.listWithAttributes(auth.workspaceId, list);
    return { data: toEntryResponse(await this.entries.get(container, entryId, known)) };
  }

  @Patch(':entry_id')
  @RequireScopes(...entryWrite)
  @ApiOperation({ summary: 'Update an entry (append multiselect values)' })
  @ApiParam(listParam)
  @ApiParam(entryParam)
  @ApiOkResponse({ type: EntryEnvelope })
  @ApiStandardErrors()
  async patch(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Param('entry_id', entryIdPipe) entryId: string, @Body() body: EntryUpdateRequest): Promise<EntryEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    return { data: toEntryResponse(await this.entries.update(writeScope(auth, container), entryId, body.data.entry_values, 'append')) };
  }

  @Put(':entry_id')
  @RequireScopes(...entryWrite)
  @ApiOperation({ summary: 'Update an entry (overwrite multiselect values)' })
  @ApiParam(listParam)
  @ApiParam(entryParam)
  @ApiOkResponse({ type: EntryEnvelope })
  @ApiStandardErrors()
  async put(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Param('entry_id', entryIdPipe) entryId: string, @Body() body: EntryUpdateRequest): Promise<EntryEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    return { data: toEntryResponse(await this.entries.update(writeScope(auth, container), entryId, body.data.entry_values, 'overwrite')) };
  }

  @Delete(':entry_id')
  @RequireScopes(...entryWrite)
  @ApiOperation({ summary: 'Delete an entry' })
  @ApiParam(listParam)
  @ApiParam(entryParam)
  @ApiOkResponse({ type: EmptyResponse, description: '`{}`' })
  @ApiStandardErrors()
  async delete(@CurrentAuth() auth: AuthContext, @Param('list') list: string, @Param('entry_id', entryIdPipe) entryId: string): Promise<EmptyResponse> {
    const container = await this.containers.list(auth.workspaceId, list);
    await this.records.delete(writeScope(auth, container), entryId);
    return {};
  }
}
