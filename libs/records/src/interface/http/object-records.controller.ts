import { Body, Controller, HttpCode, Delete, Get, Param, Patch, Post, Put, Query, UsePipes } from '@nestjs/common';
import { ContainerResolver } from '@workbase/schema';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, EmptyResponse, type PathParams, recordIdPipe, RejectNulPipe, type ResolvesPathIds, RouteRateLimit, ScopedOperation, validatedBatchBody, validatedBody } from '@workbase/shared/http';
import { writeScope } from '../../domain/write-scope';
import { SCOPES } from '@workbase/shared/kernel';
import { AssertRecordUseCase } from '../../application/assert-record.use-case';
import { CreateRecordUseCase } from '../../application/create-record.use-case';
import { DeleteRecordUseCase } from '../../application/delete-record.use-case';
import { RecordQueries } from '../../application/record.queries';
import { UpdateRecordUseCase } from '../../application/update-record.use-case';
import { RecordQueryService } from '../../application/query/record-query.service';
import { AssertQuery, MergeRecordsRequest, ViewableQueryRequest, RecordWriteRequest, ValuesQuery } from './record.requests';
import { RecordBatchRequest } from './batch.requests';
import { BATCH_MAX_OPERATIONS } from '../../domain/batch-operations';
import { RecordBatchEnvelope, toBatchItems } from './batch.responses';
import { WriteBatchUseCase } from '../../application/write-batch.use-case';
import { MergeRecordsUseCase } from '../../application/merge-records.use-case';
import { MergedRecordEnvelope, RecordEnvelope, RecordListEnvelope, toRecordResponse, ValueListEnvelope } from './record.responses';

const objectParam = { name: 'object', description: 'Object UUID or api_slug' };
const recordParam = { name: 'record_id', description: 'Record UUID' };
const read = [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead] as const;
const write = [SCOPES.recordPermissionReadWrite, SCOPES.objectConfigurationRead] as const;

/** The reference limits record merge to 5 requests per second. */
const MERGE_REQUESTS_PER_SECOND = 5;

const writeConflict = '`uniqueness_conflict`: a unique value belongs to another record; `concurrent_write_conflict`: another request is writing this record, retry';

@ApiTags('Records')
@UsePipes(RejectNulPipe)
@Controller('v2/objects/:object/records')
export class ObjectRecordsController implements ResolvesPathIds {
  constructor(
    private readonly containers: ContainerResolver,
    private readonly records: RecordQueries,
    private readonly queries: RecordQueryService,
    private readonly creates: CreateRecordUseCase,
    private readonly updates: UpdateRecordUseCase,
    private readonly asserts: AssertRecordUseCase,
    private readonly deletes: DeleteRecordUseCase,
    private readonly batches: WriteBatchUseCase,
    private readonly merges: MergeRecordsUseCase,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    const container = await this.containers.object(auth.workspaceId, params.object!);
    if (params.record_id !== undefined) await this.records.get(container, (await recordIdPipe.transform(params.record_id, { type: 'param' }))!);
  }

  @Post('query')
  @HttpCode(200)
  @ScopedOperation({
    scopes: read,
    summary: 'List records',
    description: 'Filters and sorts compile to SQL on indexes; `filter_view_id` applies a saved view\'s filter. limit/offset pagination: default limit 500 (max 1000); a page shorter than limit is the last. Errors: 400 `filter_error` naming the attribute, operator or key.',
    params: [objectParam],
    ok: RecordListEnvelope,
  })
  async query(@CurrentAuth() auth: AuthContext, @Param('object') object: string, @Body() body: ViewableQueryRequest): Promise<RecordListEnvelope> {
    const { container, attributes } = await this.containers.objectWithAttributes(auth.workspaceId, object);
    const views = await this.queries.query(container, { ...body, filterViewId: body.filter_view_id }, await this.records.workspaceSlug(container), attributes);
    return { data: views.map(toRecordResponse) };
  }

  @Post('batch')
  @HttpCode(200)
  @ScopedOperation({
    scopes: write,
    summary: 'Write records in a batch',
    description:
      'Up to 1,000 operations (`create`, `assert`, `update`, `delete`), applied in order in one transaction; each answered in its place as its single endpoint would answer it (`data`, or `error` with its status: 400, 404 for an unknown or another workspace\'s record, 409). ' +
      'Not atomic (default): a refused operation changes nothing and the others apply. `atomic: true`: all apply or none (400 naming the first refused index). Each applied operation records its usual events. ' +
      'Rate limit: one write per started 100 operations. An empty list or more than 1,000 operations: 400.',
    params: [objectParam],
    ok: RecordBatchEnvelope,
  })
  @ApiBody({ type: RecordBatchRequest })
  async batch(@CurrentAuth() auth: AuthContext, @Param('object') object: string, @Body() raw: unknown): Promise<RecordBatchEnvelope> {
    const container = await this.containers.object(auth.workspaceId, object);
    const body = await validatedBatchBody(RecordBatchRequest, raw, BATCH_MAX_OPERATIONS);
    const results = await this.batches.execute(writeScope(auth, container), 'records', body.operations, { atomic: body.atomic ?? false, workspaceSlug: await this.records.workspaceSlug(container) });
    return { data: toBatchItems(results, toRecordResponse) };
  }

  @Put()
  @ScopedOperation({
    scopes: write,
    summary: 'Assert a record',
    description:
      'Creates a record, or updates the one whose unique `matching_attribute` holds the given value. Values of the matching attribute are added (none removed); other multiselect attributes become exactly the given list. More than one match: 400 `multiple_match_results`.',
    params: [objectParam],
    ok: RecordEnvelope,
    conflict: writeConflict,
  })
  async assert(@CurrentAuth() auth: AuthContext, @Param('object') object: string, @Query() query: AssertQuery, @Body() body: RecordWriteRequest): Promise<RecordEnvelope> {
    const container = await this.containers.object(auth.workspaceId, object);
    const { recordId } = await this.asserts.execute(writeScope(auth, container), query.matching_attribute, body.data.values);
    return { data: toRecordResponse(await this.records.get(container, recordId)) };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: write,
    summary: 'Create a record',
    description: 'Fails on a conflict of a unique attribute (409 `uniqueness_conflict`).',
    params: [objectParam],
    ok: RecordEnvelope,
    conflict: '`uniqueness_conflict`: a unique value belongs to another record',
  })
  async create(@CurrentAuth() auth: AuthContext, @Param('object') object: string, @Body() body: RecordWriteRequest): Promise<RecordEnvelope> {
    const { container, attributes } = await this.containers.objectWithAttributes(auth.workspaceId, object);
    return { data: toRecordResponse(await this.creates.execute(writeScope(auth, container), body.data.values, { attributes })) };
  }

  @Post('merge')
  @HttpCode(200)
  @ScopedOperation({
    scopes: write,
    summary: 'Merge two records (beta)',
    description:
      'Makes a **new** record of the two and removes both originals (afterwards each is a 404, also as a merge input: a repeated merge is a 404). ' +
      "The primary's value wins where both have one; multi-valued attributes hold both records' values (the primary's first, each once); unique values move to the new record. " +
      'List entries, notes, comment threads, tasks, meetings (and their call recordings) and other records\' references to either original are re-pointed to the new record, keeping their ids. ' +
      'Records two `record.merged` events, one per original (`duplicate_record_id`). One transaction, always 200 (never 202). ' +
      'Errors: 400 `self_merge` when both ids are the same; 404 when either record is not one of this object\'s. ' +
      'Rate limit: 5 requests per second per token for this route (the reference\'s), besides the write limit; past it 429 `rate_limit_exceeded` with `Retry-After`.',
    params: [objectParam],
    ok: MergedRecordEnvelope,
    conflict: '`concurrent_write_conflict`: a concurrent write deadlocked with the merge; retry',
  })
  @RouteRateLimit(MERGE_REQUESTS_PER_SECOND)
  @ApiBody({ type: MergeRecordsRequest })
  async merge(@CurrentAuth() auth: AuthContext, @Param('object') object: string, @Body() raw: unknown): Promise<MergedRecordEnvelope> {
    // The object is resolved before the body is checked: another workspace's object is a 404 whatever the body.
    const container = await this.containers.object(auth.workspaceId, object);
    const body = await validatedBody(MergeRecordsRequest, raw);
    const { newRecordId } = await this.merges.execute(writeScope(auth, container), body.data.primary_record_id, body.data.secondary_record_id);
    return { data: { new_record_id: newRecordId } };
  }

  @Get(':record_id')
  @ScopedOperation({ scopes: read, summary: 'Get a record', params: [objectParam, recordParam], ok: RecordEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('object') object: string, @Param('record_id', recordIdPipe) recordId: string): Promise<RecordEnvelope> {
    const { container, attributes } = await this.containers.objectWithAttributes(auth.workspaceId, object);
    return { data: toRecordResponse(await this.records.get(container, recordId, { attributes })) };
  }

  @Patch(':record_id')
  @ScopedOperation({
    scopes: write,
    summary: 'Update a record (append multiselect values)',
    description: 'Values of multiselect attributes are added to the existing ones.',
    params: [objectParam, recordParam],
    ok: RecordEnvelope,
    conflict: writeConflict,
  })
  async patch(
    @CurrentAuth() auth: AuthContext,
    @Param('object') object: string,
    @Param('record_id', recordIdPipe) recordId: string,
    @Body() body: RecordWriteRequest,
  ): Promise<RecordEnvelope> {
    const container = await this.containers.object(auth.workspaceId, object);
    return { data: toRecordResponse(await this.updates.execute(writeScope(auth, container), recordId, body.data.values, 'append')) };
  }

  @Put(':record_id')
  @ScopedOperation({
    scopes: write,
    summary: 'Update a record (overwrite multiselect values)',
    description: 'Values of multiselect attributes replace the existing ones.',
    params: [objectParam, recordParam],
    ok: RecordEnvelope,
    conflict: writeConflict,
  })
  async put(
    @CurrentAuth() auth: AuthContext,
    @Param('object') object: string,
    @Param('record_id', recordIdPipe) recordId: string,
    @Body() body: RecordWriteRequest,
  ): Promise<RecordEnvelope> {
    const container = await this.containers.object(auth.workspaceId, object);
    return { data: toRecordResponse(await this.updates.execute(writeScope(auth, container), recordId, body.data.values, 'overwrite')) };
  }

  @Delete(':record_id')
  @ScopedOperation({
    scopes: write,
    summary: 'Delete a record',
    params: [objectParam, recordParam],
    ok: { type: EmptyResponse, description: '`{}`' },
    conflict: '`concurrent_write_conflict`: another request is writing this record; retry',
  })
  async delete(@CurrentAuth() auth: AuthContext, @Param('object') object: string, @Param('record_id', recordIdPipe) recordId: string): Promise<EmptyResponse> {
    const container = await this.containers.object(auth.workspaceId, object);
    await this.deletes.execute(writeScope(auth, container), recordId);
    return {};
  }

  @Get(':record_id/attributes/:attribute/values')
  @ScopedOperation({
    scopes: read,
    summary: 'List record attribute values',
    description: 'Current values, or with `show_historic=true` every value the attribute has had, oldest first.',
    params: [objectParam, recordParam, { name: 'attribute', description: 'Attribute UUID or api_slug' }],
    ok: ValueListEnvelope,
  })
  async values(
    @CurrentAuth() auth: AuthContext,
    @Param('object') object: string,
    @Param('record_id', recordIdPipe) recordId: string,
    @Param('attribute') attribute: string,
    @Query() query: ValuesQuery,
  ): Promise<ValueListEnvelope> {
    const container = await this.containers.object(auth.workspaceId, object);
    const data = await this.records.values(container, recordId, attribute, { showHistoric: query.show_historic ?? false, limit: query.limit, offset: query.offset });
    return { data };
  }
}
