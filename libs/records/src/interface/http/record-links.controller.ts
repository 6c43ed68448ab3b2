import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, UsePipes } from '@nestjs/common';
import { ContainerResolver } from '@workbase/schema';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, pageOf, type PathParams, recordIdPipe, RejectNulPipe, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES, ValidationError } from '@workbase/shared/kernel';
import { RecordSearch, type SearchRequester } from '../../application/record-search';
import { RecordQueries } from '../../application/record.queries';
import { RECORD_ENTRIES_PAGE, RecordEntriesQuery, RecordSearchRequest, SEARCH_LIMIT } from './record-link.requests';
import { RecordEntryListEnvelope, SearchResultEnvelope, toRecordEntryResponse, toSearchResultResponse } from './record-link.responses';
import { ValuesQuery } from './record.requests';
import { ValueListEnvelope } from './record.responses';

const entryIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Entry not found: entry_id must be a UUID.') });

/**
 * Reads across records and lists: a record's list entries, record search over several objects,
 * and the value history of list entries (as records have).
 */
@ApiTags('Records')
@UsePipes(RejectNulPipe)
@Controller('v2')
export class RecordLinksController implements ResolvesPathIds {
  constructor(
    private readonly containers: ContainerResolver,
    private readonly search: RecordSearch,
    private readonly records: RecordQueries,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    if (params.list !== undefined) {
      const container = await this.containers.list(auth.workspaceId, params.list);
      await this.records.values(container, (await entryIdPipe.transform(params.entry_id!, { type: 'param' }))!, params.attribute!, { showHistoric: false, limit: 1 });
    } else {
      const container = await this.containers.object(auth.workspaceId, params.object!);
      await this.records.get(container, (await recordIdPipe.transform(params.record_id!, { type: 'param' }))!);
    }
  }

  @Get('objects/:object/records/:record_id/entries')
  @ScopedOperation({
    scopes: [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead, SCOPES.listEntryRead],
    summary: "List a record's entries",
    description: 'The list entries whose parent is this record, oldest first. limit/offset: `limit` 1–1000 (default 100). Unknown object or record: 404.',
    params: [{ name: 'object', description: 'Object UUID or api_slug' }, { name: 'record_id', description: 'Record UUID' }],
    ok: RecordEntryListEnvelope,
  })
  async recordEntries(
    @CurrentAuth() auth: AuthContext,
    @Param('object') object: string,
    @Param('record_id', recordIdPipe) recordId: string,
    @Query() query: RecordEntriesQuery,
  ): Promise<RecordEntryListEnvelope> {
    const container = await this.containers.object(auth.workspaceId, object);
    const rows = await this.records.entriesOf(container, recordId, pageOf(query, RECORD_ENTRIES_PAGE.default));
    return { data: rows.map(toRecordEntryResponse) };
  }

  @Post('objects/records/search')
  @HttpCode(200)
  @ScopedOperation({
    scopes: [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead],
    summary: 'Search records',
    description:
      'Ranks records of `objects` by case-insensitive matches of `query` on names, email addresses, domains and phone numbers (exact > prefix > word prefix > substring; ' +
      'names weigh most), on indexes; queries under three characters match prefixes only. `limit` 1–100 (default 25). `request_as` is `{type: "workspace"}` or a member ' +
      '(`workspace_member_id` or `email_address`; unknown: 400 `value_not_found`); every member sees every record. An unknown object is a 400 `value_not_found` naming `objects[i]`. ' +
      'Results are consistent with the last write (no indexing delay).',
    ok: SearchResultEnvelope,
  })
  async searchRecords(@CurrentAuth() auth: AuthContext, @Body() body: RecordSearchRequest): Promise<SearchResultEnvelope> {
    const results = await this.search.search(auth.workspaceId, {
      query: body.query,
      objects: body.objects,
      limit: body.limit ?? SEARCH_LIMIT.default,
      requestAs: requester(body.request_as),
    });
    return { data: results.map((result) => toSearchResultResponse(auth.workspaceId, result)) };
  }

  @Get('lists/:list/entries/:entry_id/attributes/:attribute/values')
  @ScopedOperation({
    scopes: [SCOPES.listEntryRead, SCOPES.listConfigurationRead],
    summary: 'List entry attribute values',
    description: 'Current values, or with `show_historic=true` every value the attribute has had, oldest first (as for records). Unknown list, entry or attribute: 404.',
    params: [{ name: 'list', description: 'List UUID or api_slug' }, { name: 'entry_id', description: 'Entry UUID' }, { name: 'attribute', description: 'Attribute UUID or api_slug' }],
    ok: ValueListEnvelope,
  })
  async entryValues(
    @CurrentAuth() auth: AuthContext,
    @Param('list') list: string,
    @Param('entry_id', entryIdPipe) entryId: string,
    @Param('attribute') attribute: string,
    @Query() query: ValuesQuery,
  ): Promise<ValueListEnvelope> {
    const container = await this.containers.list(auth.workspaceId, list);
    const data = await this.records.values(container, entryId, attribute, { showHistoric: query.show_historic ?? false, limit: query.limit, offset: query.offset });
    return { data };
  }
}

function requester(input: RecordSearchRequest['request_as']): SearchRequester {
  if (input.type === 'workspace') {
    if (input.workspace_member_id !== undefined || input.email_address !== undefined) {
      throw new ValidationError('request_as: a workspace request names no member.', { field: 'request_as' });
    }
    return { type: 'workspace' };
  }
  if ((input.workspace_member_id === undefined) === (input.email_address === undefined)) {
    throw new ValidationError('request_as: give workspace_member_id or email_address for a workspace-member request.', { field: 'request_as.workspace_member_id' });
  }
  return { type: 'workspace-member', memberId: input.workspace_member_id?.toLowerCase(), email: input.email_address };
}
