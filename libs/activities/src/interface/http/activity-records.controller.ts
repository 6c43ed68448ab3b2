import { Body, Controller, UsePipes, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AssertQuery, RecordQueryRequest, RecordWriteRequest } from '@workbase/records';
import { ApiErrorResponse, ApiStandardErrors, type AuthContext, CurrentAuth, EmptyResponse, recordIdPipe, RejectNulPipe, RequireScopes, writeActor } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { ActivityRecords } from '../../application/activity-records';
import { ActivityRecordEnvelope, ActivityRecordListEnvelope, toActivityRecordResponse } from './activity.responses';

const activityParam = { name: 'activity', description: 'Activity UUID or api_slug' };
const recordParam = { name: 'record_id', description: 'Activity record UUID; records have no slug, so anything else is a 404' };

/** Record reads need these with `activity_record:read`; writes the same with `activity_record:read-write`. */
const READ = [SCOPES.activityRecordRead, SCOPES.activityConfigurationRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead] as const;
const WRITE = [SCOPES.activityRecordReadWrite, SCOPES.activityConfigurationRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead] as const;
const conflict = { type: ApiErrorResponse, description: '`concurrent_write_conflict`: another request is writing this record; retry. `uniqueness_conflict`: a unique value belongs to another record.' };

@ApiTags('Activity records')
@Controller('v2/activities/:activity/records')
@UsePipes(RejectNulPipe)
export class ActivityRecordsController {
  constructor(private readonly records: ActivityRecords) {}

  @Post('query')
  @HttpCode(200)
  @RequireScopes(...READ)
  @ApiOperation({
    summary: 'List activity records',
    description: '`filter` and `sorts` as in object record queries (e.g. sorts `[{"attribute":"timestamp","direction":"desc"}]`). limit/offset: default limit 500 (max 1000), offset 0; a page shorter than limit is the last.',
  })
  @ApiParam(activityParam)
  @ApiOkResponse({ type: ActivityRecordListEnvelope })
  @ApiStandardErrors()
  async query(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Body() body: RecordQueryRequest): Promise<ActivityRecordListEnvelope> {
    return { data: (await this.records.query(auth.workspaceId, activity, body)).map(toActivityRecordResponse) };
  }

  @Put()
  @RequireScopes(...WRITE)
  @ApiOperation({
    summary: 'Upsert an activity record',
    description:
      'Creates a record, or updates the one whose unique `matching_attribute` (slug or id) holds the given value. Multiselect attributes other than the matching one are overwritten. More than one match: 400 `multiple_match_results`.',
  })
  @ApiParam(activityParam)
  @ApiOkResponse({ type: ActivityRecordEnvelope })
  @ApiStandardErrors()
  @ApiConflictResponse(conflict)
  async upsert(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Query() query: AssertQuery, @Body() body: RecordWriteRequest): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.upsert(writeActor(auth), activity, query.matching_attribute, body.data.values)) };
  }

  @Post()
  @HttpCode(200)
  @RequireScopes(...WRITE)
  @ApiOperation({ summary: 'Create an activity record', description: '`timestamp` is required. Record references are resolved, never created.' })
  @ApiParam(activityParam)
  @ApiOkResponse({ type: ActivityRecordEnvelope })
  @ApiStandardErrors()
  @ApiConflictResponse(conflict)
  async create(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Body() body: RecordWriteRequest): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.create(writeActor(auth), activity, body.data.values)) };
  }

  @Get(':record_id')
  @RequireScopes(...READ)
  @ApiOperation({ summary: 'Get an activity record' })
  @ApiParam(activityParam)
  @ApiParam(recordParam)
  @ApiOkResponse({ type: ActivityRecordEnvelope })
  @ApiStandardErrors()
  async get(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Param('record_id', recordIdPipe) recordId: string): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.get(auth.workspaceId, activity, recordId)) };
  }

  @Put(':record_id')
  @RequireScopes(...WRITE)
  @ApiOperation({ summary: 'Update an activity record (overwrite)', description: 'For multiselect attributes the supplied values replace the existing list.' })
  @ApiParam(activityParam)
  @ApiParam(recordParam)
  @ApiOkResponse({ type: ActivityRecordEnvelope })
  @ApiStandardErrors()
  @ApiConflictResponse(conflict)
  async put(
    @CurrentAuth() auth: AuthContext,
    @Param('activity') activity: string,
    @Param('record_id', recordIdPipe) recordId: string,
    @Body() body: RecordWriteRequest,
  ): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.update(writeActor(auth), activity, recordId, body.data.values, 'overwrite')) };
  }

  @Patch(':record_id')
  @RequireScopes(...WRITE)
  @ApiOperation({ summary: 'Update an activity record (append)', description: 'For multiselect attributes the supplied values are added to the existing ones.' })
  @ApiParam(activityParam)
  @ApiParam(recordParam)
  @ApiOkResponse({ type: ActivityRecordEnvelope })
  @ApiStandardErrors()
  @ApiConflictResponse(conflict)
  async patch(
    @CurrentAuth() auth: AuthContext,
    @Param('activity') activity: string,
    @Param('record_id', recordIdPipe) recordId: string,
    @Body() body: RecordWriteRequest,
  ): Promise<ActivityRecordEnvelope> {
    return { data: toActivityRecordResponse(await this.records.update(writeActor(auth), activity, recordId, body.data.values, 'append')) };
  }

  @Delete(':record_id')
  @RequireScopes(...WRITE)
  @ApiOperation({ summary: 'Delete an activity record' })
  @ApiParam(activityParam)
  @ApiParam(recordParam)
  @ApiOkResponse({ type: EmptyResponse, description: '`{}`' })
  @ApiStandardErrors()
  async delete(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Param('record_id', recordIdPipe) recordId: string): Promise<EmptyResponse> {
    await this.records.delete(writeActor(auth), activity, recordId);
    return {};
  }
}
