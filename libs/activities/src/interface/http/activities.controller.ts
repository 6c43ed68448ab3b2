import { Body, Controller, UsePipes, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, EmptyResponse, type PathParams, RejectNulPipe, RequireAdminMember, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { ActivityCatalog } from '../../application/activity.catalog';
import { ActivityCreateRequest, ActivityUpdateRequest, ListActivitiesQuery } from './activity.requests';
import { ActivityEnvelope, ActivityListEnvelope, toActivityResponse } from './activity.responses';

const activityParam = { name: 'activity', description: 'Activity UUID or api_slug' };

@ApiTags('Activities')
@Controller('v2/activities')
@UsePipes(RejectNulPipe)
export class ActivitiesController implements ResolvesPathIds {
  constructor(private readonly catalog: ActivityCatalog) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    await this.catalog.get(auth.workspaceId, params.activity!);
  }

  @Get()
  @ScopedOperation({
    scopes: [SCOPES.activityConfigurationRead],
    summary: 'List activities',
    description: 'System and custom activities in creation order; archived ones only with show_archived=true.',
    ok: ActivityListEnvelope,
  })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListActivitiesQuery): Promise<ActivityListEnvelope> {
    return { data: (await this.catalog.list(auth.workspaceId, { showArchived: query.show_archived ?? false })).map(toActivityResponse) };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: [SCOPES.activityConfigurationReadWrite],
    summary: 'Create an activity',
    description: 'The activity inherits the attributes of the schema it extends (see libs/activities/README.md).',
    ok: ActivityEnvelope,
    conflict: '`slug_conflict`: the api_slug is taken',
  })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: ActivityCreateRequest): Promise<ActivityEnvelope> {
    const d = body.data;
    const activity = await this.catalog.create(auth.workspaceId, { apiSlug: d.api_slug, singularNoun: d.singular_noun, pluralNoun: d.plural_noun, extends: d.extends }, auth.actor);
    return { data: toActivityResponse(activity) };
  }

  @Get(':activity')
  @ScopedOperation({ scopes: [SCOPES.activityConfigurationRead], summary: 'Get an activity', params: [activityParam], ok: ActivityEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string): Promise<ActivityEnvelope> {
    return { data: toActivityResponse(await this.catalog.get(auth.workspaceId, activity)) };
  }

  @Patch(':activity')
  @ScopedOperation({
    scopes: [SCOPES.activityConfigurationReadWrite],
    summary: 'Update an activity',
    description: 'Changes api_slug, nouns or is_archived. A body containing `extends`: 400. A system activity: 400 `system_edit_unauthorized`.',
    params: [activityParam],
    ok: ActivityEnvelope,
    conflict: '`slug_conflict`: the api_slug is taken',
  })
  async update(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string, @Body() body: ActivityUpdateRequest): Promise<ActivityEnvelope> {
    const d = body.data;
    const updated = await this.catalog.update(
      auth.workspaceId,
      activity,
      { apiSlug: d.api_slug, singularNoun: d.singular_noun, pluralNoun: d.plural_noun, isArchived: d.is_archived, extendsGiven: d.extends !== undefined },
      auth.actor,
    );
    return { data: toActivityResponse(updated) };
  }

  @Delete(':activity')
  @ScopedOperation({
    scopes: [SCOPES.activityConfigurationReadWrite, SCOPES.activityRecordReadWrite],
    summary: 'Delete an activity',
    description: 'Deletes the activity and all its records (archived ones too). A system activity: 400. The member behind the token must be an admin.',
    params: [activityParam],
    ok: { type: EmptyResponse, description: '`{}`' },
  })
  @RequireAdminMember()
  async delete(@CurrentAuth() auth: AuthContext, @Param('activity') activity: string): Promise<EmptyResponse> {
    await this.catalog.delete(auth.workspaceId, activity, auth.actor);
    return {};
  }
}
