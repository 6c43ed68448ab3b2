import { Body, Controller, UsePipes, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AssertQuery, RecordQueryRequest, RecordWriteRequest } from '@workbase/records';
import { type AuthContext, CurrentAuth, EmptyResponse, type PathParams, recordIdPipe, RejectNulPipe, type ResolvesPathIds, ScopedOperation, writeActor } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { ActivityRecords } from '../../application/activity-records';
import { ActivityCatalog } from '../../application/activity.catalog';
import { ActivityRecordEnvelope, ActivityRecordListEnvelope, toActivityRecordResponse } from './activity.responses';

const activityParam = { name: 'activity', description: 'Activity UUID or api_slug' };
const recordParam = { name: 'record_id', description: 'Activity record UUID; records have no slug, so anything else is a 404' };

/** Record reads need these with `activity_record:read`; writes the same with `activity_record:read-write`. */
const READ = [SCOPES.activityRecordRead, SCOPES.activityConfigurationRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead] as const;
const WRITE = [SCOPES.activityRecordReadWrite, SCOPES.activityConfigurationRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead] as const;
const conflict = '`concurrent_write_conflict`: another request is writing this record; retry. `uniqueness_conflict`: a unique value belongs to another record.';

@ApiTags('Activity records')
@Controller('v2/activities/:activity/records')
@UsePipes(RejectNulPipe)
export class ActivityRecordsController implements ResolvesPathIds {
  constructor(
    private readonly records: ActivityRecords,
    private readonly catalog: ActivityCatalog,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    if (params.record_id === undefined) await this.catalog.get(auth.workspaceId, params.activity!);
    else await this.records.get(auth.workspaceId, params.activity!, (await recordIdPipe.transform(params.record_id, { type: 'param' }))!);
  }

  @Post('query')
  @HttpCode(200)
  @ScopedOperation({
    scopes: READ,
    summary: 'List activity records',
    description: '`filter` and `sorts` as in object record queries (e.g. sorts `[{"attribute":"timestamp","direction":"desc"}]`). limit/offset: default limit 500 (max 1000), offset 0; a page shorter than limit is the last.',
    params: [activityParam],
    ok: ActivityRecordListEnvelope,
  })
  async query(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Body() body: RecordQueryRequest): Promise<ActivityRecordListEnvelope> {
    return { data: (await this.records.query(auth.workspaceId, activity, body)).map(toActivityRecordResponse) };
  }

  @Put()
  @ScopedOperation({
    scopes: WRITE,
    summary: 'Upsert an activity record',
    description:
      'Creates a record, or updates the one whose unique `matching_attribute` (slug or id) holds the given value. Multiselect attributes other than the matching one are overwritten. More than one match: 400 `multiple_match_results`.',
    params: [activityParam],
    ok: ActivityRecordEnvelope,
    conflict,
  })
  async upsert(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Query() query: AssertQuery, @Body() body: RecordWriteRequest): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.upsert(writeActor(auth), activity, query.matching_attribute, body.data.values)) };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: WRITE,
    summary: 'Create an activity record',
    description: '`timestamp` is required. Record references are resolved, never created.',
    params: [activityParam],
    ok: ActivityRecordEnvelope,
    conflict,
  })
  async create(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Body() body: RecordWriteRequest): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.create(writeActor(auth), activity, body.data.values)) };
  }

  @Get(':record_id')
  @ScopedOperation({ scopes: READ, summary: 'Get an activity record', params: [activityParam, recordParam], ok: ActivityRecordEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Param('record_id', recordIdPipe) recordId: string): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.get(auth.workspaceId, activity, recordId)) };
  }

  @Put(':record_id')
  @ScopedOperation({
    scopes: WRITE,
    summary: 'Update an activity record (overwrite)',
    description: 'For multiselect attributes the supplied values replace the existing list.',
    params: [activityParam, recordParam],
    ok: ActivityRecordEnvelope,
    conflict,
  })
  async put(
    @CurrentAuth() auth: AuthContext,
    @Param('activity') activity: string,
    @Param('record_id', recordIdPipe) recordId: string,
    @Body() body: RecordWriteRequest,
  ): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.update(writeActor(auth), activity, recordId, body.data.values, 'overwrite')) };
  }

  @Patch(':record_id')
  @ScopedOperation({
    scopes: WRITE,
    summary: 'Update an activity record (append)',
    description: 'For multiselect attributes the supplied values are added to the existing ones.',
    params: [activityParam, recordParam],
    ok: ActivityRecordEnvelope,
    conflict,
  })
  async patch(
    @CurrentAuth() auth: AuthContext,
    @Param('activity') activity: string,
    @Param('record_id', recordIdPipe) recordId: string,
    @Body() body: RecordWriteRequest,
  ): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.update(writeActor(auth), activity, recordId, body.data.values, 'append')) };
  }

  @Delete(':record_id')
  @ScopedOperation({
    scopes: WRITE,
    summary: 'Delete an activity record',
    params: [activityParam, recordParam],
    ok: { type: EmptyResponse, description: '`{}`' },
    conflict: '`concurrent_write_conflict`: another request is writing this record; retry.',
  })
  async delete(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Param('record_id', recordIdPipe) recordId: string): Promise<EmptyResponse> {
    await this.records.delete(writeActor(auth), activity, recordId);
    return {};
  }
}
