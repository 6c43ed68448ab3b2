import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Put, Res, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { type AuthContext, CurrentAuth, type PathParams, type ResolvesPathIds } from '@workbase/shared/http';
import type { Response } from 'express';
import { ScimGroupsService, type ScimGroupView } from '../../application/scim-groups.service';
import { SCIM_URN } from '../../domain/urns';
import { excludes } from './projection';
import { ApiNotModifiedResponse, ScimRead, ScimWrite } from './scim-docs';
import { ScimGroupRequest } from './scim.requests';
import { ScimJsonInterceptor } from './scim-json.interceptor';
import { ScimResourceResponder } from './scim-resource.responder';
import { ScimSearchHandlers } from './scim-search.handlers';
import { ApiScimResourceQuery, type ScimSearch, ScimResourceParams, type ScimResourceQuery } from './scim-list.requests';
import { ScimGroupResource, ScimListResponse, ScimPatchRequest, toScimGroup } from './scim.responses';

const GROUP_ID = { name: 'workspace_team_id', description: 'Team id' };
const GROUP_BODY = {
  description: 'A SCIM Group. `schemas` must include the core Group URN; `displayName` is required, non-empty and unique. `members` lists user ids (`value`).',
  type: ScimGroupRequest,
};

@ApiTags('SCIM')
@Controller('scim/v2/Groups')
@UseInterceptors(ScimJsonInterceptor)
export class ScimGroupsController extends ScimSearchHandlers({ plural: 'groups (teams)', listDescription: 'Filter on displayName, externalId, id or members; `excludedAttributes=members` skips reading members.' }) implements ResolvesPathIds {
  private readonly respond: ScimResourceResponder<ScimGroupView>;

  constructor(
    private readonly groups: ScimGroupsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.respond = new ScimResourceResponder({ urn: SCIM_URN.group, version: (view) => view.team.version, document: (view) => toScimGroup(view.team, view.members, config.baseUrl) });
  }

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    await this.groups.get(auth.workspaceId, params.workspace_team_id!, false);
  }

  @Post()
  @ScimWrite(400, 409, 413)
  @ApiOperation({ summary: 'Create a group (team)' })
  @ApiBody(GROUP_BODY)
  @ApiCreatedResponse({ type: ScimGroupResource, description: 'Created; `Location` holds meta.location' })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return this.respond.created(await this.groups.create(auth.workspaceId, body), res);
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
    return this.respond.read(await this.groups.get(auth.workspaceId, teamId, !excludes('members', query.attributes, query.excludedAttributes)), query, ifNoneMatch, res);
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
    return this.respond.tagged(await this.groups.replace(auth.workspaceId, teamId, body, ifMatch), query, res);
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
    const projected = query.attributes !== undefined || query.excludedAttributes !== undefined;
    return projected ? this.respond.tagged(view, query, res) : this.respond.noContent(view, res);
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

  protected search(auth: AuthContext, query: ScimSearch): Promise<ScimListResponse> {
    return this.respond.page(query, async (page) => {
      const { total, groups } = await this.groups.list(auth.workspaceId, query.filter, page, !excludes('members', query.attributes, query.excludedAttributes));
      return { total, resources: groups };
    });
  }
}
