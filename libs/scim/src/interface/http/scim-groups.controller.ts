import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Put, Res, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { type AuthContext, CurrentAuth } from '@workbase/shared/http';
import type { Response } from 'express';
import { ScimGroupsService, type ScimGroupView } from '../../application/scim-groups.service';
import { entityTag, isNotModified } from '../../domain/preconditions';
import { SCIM_URN } from '../../domain/urns';
import { excludes, project } from './projection';
import { ApiNotModifiedResponse, ScimRead, ScimWrite } from './scim-docs';
import { ScimGroupRequest } from './scim.requests';
import { ScimJsonInterceptor } from './scim-json.interceptor';
import { ApiScimListQuery, ApiScimResourceQuery, pageOf, ScimListParams, type ScimSearch, searchRequestOf, type ScimListQuery, ScimResourceParams, type ScimResourceQuery } from './scim-list.requests';
import { ScimGroupResource, ScimListResponse, ScimPatchRequest, ScimSearchRequest, toListResponse, toScimGroup } from './scim.responses';

const GROUP_ID = { name: 'workspace_team_id', description: 'Team id' };
const GROUP_BODY = {
  description: 'A SCIM Group. `schemas` must include the core Group URN; `displayName` is required, non-empty and unique. `members` lists user ids (`value`).',
  type: ScimGroupRequest,
};

@ApiTags('SCIM')
@Controller('scim/v2/Groups')
@UseInterceptors(ScimJsonInterceptor)
export class ScimGroupsController {
  constructor(
    private readonly groups: ScimGroupsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ScimRead(400)
  @ApiOperation({ summary: 'List groups (teams)', description: 'Filter on displayName, externalId, id or members; `excludedAttributes=members` skips reading members.' })
  @ApiOkResponse({ type: ScimListResponse })
  @ApiScimListQuery()
  async list(@CurrentAuth() auth: AuthContext, @ScimListParams() query: ScimListQuery): Promise<ScimListResponse> {
    return this.search(auth, query);
  }

  @Post('.search')
  @HttpCode(200)
  @ScimRead(400)
  @ApiOperation({ summary: 'Search groups (POST /.search)' })
  @ApiBody({ type: ScimSearchRequest })
  @ApiOkResponse({ type: ScimListResponse })
  async searchByPost(@CurrentAuth() auth: AuthContext, @Body() body: unknown): Promise<ScimListResponse> {
    return this.search(auth, searchRequestOf(body));
  }

  @Post()
  @ScimWrite(400, 409, 413)
  @ApiOperation({ summary: 'Create a group (team)' })
  @ApiBody(GROUP_BODY)
  @ApiCreatedResponse({ type: ScimGroupResource, description: 'Created; `Location` holds meta.location' })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response): Promise<ScimGroupResource> {
    const view = await this.groups.create(auth.workspaceId, body);
    const group = toScimGroup(view.team, view.members, this.config.baseUrl);
    res.status(201).setHeader('Location', group.meta.location);
    res.setHeader('ETag', entityTag(view.team.version));
    return group;
  }

  @Get(':workspace_team_id')
  @ScimRead(404)
  @ApiOperation({ summary: 'Get a group (team)' })
  @ApiParam(GROUP_ID)
  @ApiOkResponse({ type: ScimGroupResource })
  @ApiNotModifiedResponse()
  @ApiScimResourceQuery()
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('workspace_team_id') teamId: string,
    @ScimResourceParams() query: ScimResourceQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const view = await this.groups.get(auth.workspaceId, teamId, !excludes('members', query.attributes, query.excludedAttributes));
    if (!isNotModified(ifNoneMatch, view.team.version)) return this.presentTagged(view, query, res);
    res.status(304).setHeader('ETag', entityTag(view.team.version));
    return undefined;
  }

  @Put(':workspace_team_id')
  @ScimWrite(400, 404, 409, 412, 413)
  @ApiOperation({ summary: 'Replace a group (team)', description: 'Replaces the name, externalId and the whole member list.' })
  @ApiParam(GROUP_ID)
  @ApiBody(GROUP_BODY)
  @ApiOkResponse({ type: ScimGroupResource })
  @ApiScimResourceQuery()
  async replace(
    @CurrentAuth() auth: AuthContext,
    @Param('workspace_team_id') teamId: string,
    @Body() body: unknown,
    @ScimResourceParams() query: ScimResourceQuery,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    return this.presentTagged(await this.groups.replace(auth.workspaceId, teamId, body, ifMatch), query, res);
  }

  @Patch(':workspace_team_id')
  @ScimWrite(400, 404, 409, 412, 413)
  @ApiOperation({
    summary: 'Update a group (team) with PatchOp operations',
    description:
      'Paths: displayName, externalId, members, members[value eq "…"] (remove). `add` appends members, `replace` sets the whole list, `remove` with a value array removes those members. Answers 204; with `attributes` or `excludedAttributes` in the query, 200 with the group.',
  })
  @ApiParam(GROUP_ID)
  @ApiBody({ type: ScimPatchRequest })
  @ApiNoContentResponse({ description: 'Updated' })
  @ApiOkResponse({ type: ScimGroupResource, description: 'Updated, when attributes or excludedAttributes was given' })
  @ApiScimResourceQuery()
  async patch(
    @CurrentAuth() auth: AuthContext,
    @Param('workspace_team_id') teamId: string,
    @Body() body: unknown,
    @ScimResourceParams() query: ScimResourceQuery,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const view = await this.groups.patch(auth.workspaceId, teamId, body, ifMatch);
    if (query.attributes === undefined && query.excludedAttributes === undefined) {
      res.status(204).setHeader('ETag', entityTag(view.team.version));
      return undefined;
    }
    return this.presentTagged(view, query, res);
  }

  @Delete(':workspace_team_id')
  @HttpCode(204)
  @ScimWrite(404, 412)
  @ApiOperation({ summary: 'Delete a group (team)', description: 'Afterwards it answers 404 and is never listed or filtered; its members stay in the workspace.' })
  @ApiParam(GROUP_ID)
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('workspace_team_id') teamId: string, @Headers('if-match') ifMatch: string | undefined): Promise<void> {
    await this.groups.delete(auth.workspaceId, teamId, ifMatch);
  }

  private async search(auth: AuthContext, query: ScimSearch): Promise<ScimListResponse> {
    const page = pageOf(query.startIndex, query.count);
    const { total, groups } = await this.groups.list(auth.workspaceId, query.filter, page, !excludes('members', query.attributes, query.excludedAttributes));
    return toListResponse(groups.map((view) => this.present(view, query)), total, page.startIndex);
  }

  private presentTagged(view: ScimGroupView, query: ScimResourceQuery, res: Response): Record<string, unknown> {
    res.setHeader('ETag', entityTag(view.team.version));
    return this.present(view, query);
  }

  private present(view: ScimGroupView, query: ScimResourceQuery): Record<string, unknown> {
    const group = toScimGroup(view.team, view.members, this.config.baseUrl) as unknown as Record<string, unknown>;
    return project(group, SCIM_URN.group, query.attributes, query.excludedAttributes);
  }
}
