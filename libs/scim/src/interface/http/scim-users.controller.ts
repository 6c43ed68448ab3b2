import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Put, Res, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { type AuthContext, CurrentAuth, type PathParams, type ResolvesPathIds } from '@workbase/shared/http';
import type { Response } from 'express';
import { type ScimCaller, ScimUsersService } from '../../application/scim-users.service';
import type { ScimUserRecord } from '../../domain/scim-user';
import { SCIM_URN } from '../../domain/urns';
import { ApiNotModifiedResponse, ScimRead, ScimWrite } from './scim-docs';
import { ScimUserRequest } from './scim.requests';
import { ScimJsonInterceptor } from './scim-json.interceptor';
import { ScimResourceResponder } from './scim-resource.responder';
import { ScimSearchHandlers } from './scim-search.handlers';
import { ApiScimResourceQuery, type ScimSearch, ScimResourceParams, type ScimResourceQuery } from './scim-list.requests';
import { ScimListResponse, ScimPatchRequest, ScimUserResource, toScimUser } from './scim.responses';

const USER_ID = { name: 'user_id', description: 'Workspace membership id or invite id' };
const USER_BODY = {
  description:
    'A SCIM User. `schemas` must include the core User URN; `userName` (any string, unique case-insensitively) is required, and an email must come from `emails` (primary, else the first work, else the first) or from `userName`. Every core attribute and the enterprise extension round-trip as sent; unknown attributes and read-only ones (`id`, `meta`, `groups`) are ignored; booleans may be strings ("True").',
  type: ScimUserRequest,
};

@ApiTags('SCIM')
@Controller('scim/v2/Users')
@UseInterceptors(ScimJsonInterceptor)
export class ScimUsersController extends ScimSearchHandlers({ plural: 'users', listDescription: 'Active members, suspended and deprovisioned members, and pending invites, in creation order.' }) implements ResolvesPathIds {
  private readonly respond: ScimResourceResponder<ScimUserRecord>;

  constructor(
    private readonly users: ScimUsersService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.respond = new ScimResourceResponder({ urn: SCIM_URN.user, version: (user) => user.version, document: (user) => toScimUser(user, config.baseUrl) });
  }

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    await this.users.get(auth.workspaceId, params.user_id!);
  }

  @Post()
  @ScimWrite(400, 409, 413)
  @ApiOperation({
    summary: 'Create a user',
    description:
      'An active member at once when the workspace has verified the email domain of userName (CLI `workspace:verify-domain`), otherwise a pending invite. `active: false` creates a suspended member or a deprovisioned invite.',
  })
  @ApiBody(USER_BODY)
  @ApiCreatedResponse({ type: ScimUserResource, description: 'Created; `Location` holds meta.location' })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return this.respond.created(await this.users.create(auth.workspaceId, body, callerOf(auth)), res);
  }

  @Get(':user_id')
  @ScimRead(404)
  @ApiOperation({ summary: 'Get a user' })
  @ApiParam(USER_ID)
  @ApiOkResponse({ type: ScimUserResource })
  @ApiNotModifiedResponse()
  @ApiScimResourceQuery()
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('user_id') userId: string,
    @ScimResourceParams() query: ScimResourceQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    return this.respond.read(await this.users.get(auth.workspaceId, userId), query, ifNoneMatch, res);
  }

  @Put(':user_id')
  @ScimWrite(400, 404, 409, 412, 413)
  @ApiOperation({
    summary: 'Replace a user',
    description:
      'Replaces every attribute (an omitted one is cleared); omitted externalId, active and appRole keep their values; read-only values (`id`, `meta`, `groups`) are ignored. `active: false` deprovisions (Okta custom apps deactivate this way). `If-Match` with another version: 412.',
  })
  @ApiParam(USER_ID)
  @ApiBody(USER_BODY)
  @ApiOkResponse({ type: ScimUserResource })
  @ApiScimResourceQuery()
  async replace(
    @CurrentAuth() auth: AuthContext,
    @Param('user_id') userId: string,
    @Body() body: unknown,
    @ScimResourceParams() query: ScimResourceQuery,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    return this.respond.tagged(await this.users.replace(auth.workspaceId, userId, body, callerOf(auth), ifMatch), query, res);
  }

  @Patch(':user_id')
  @ScimWrite(400, 404, 409, 412, 413)
  @ApiOperation({
    summary: 'Update a user with PatchOp operations',
    description:
      'Operations are applied in order, all or nothing (RFC 7644 §3.5.2), on any attribute of the User schema and the enterprise extension, with value filters (`emails[type eq "work"].value`); the path may be omitted when value is an object of attributes (dotted and URN-qualified keys accepted). `id`, `meta` and `groups` are read-only: 400 `mutability`. `active: false` on an active member deprovisions it (200); on a pending invite it deprovisions the invite (204, no body). `If-Match` with another version: 412.',
  })
  @ApiParam(USER_ID)
  @ApiBody({ type: ScimPatchRequest })
  @ApiOkResponse({ type: ScimUserResource })
  @ApiNoContentResponse({ description: 'A pending invite was set inactive' })
  @ApiScimResourceQuery()
  async patch(
    @CurrentAuth() auth: AuthContext,
    @Param('user_id') userId: string,
    @Body() body: unknown,
    @ScimResourceParams() query: ScimResourceQuery,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const { user, noContent } = await this.users.patch(auth.workspaceId, userId, body, callerOf(auth), ifMatch);
    return noContent ? this.respond.noContent(user, res) : this.respond.tagged(user, query, res);
  }

  @Delete(':user_id')
  @HttpCode(204)
  @ScimWrite(404, 412)
  @ApiOperation({
    summary: 'Delete a user',
    description:
      'Afterwards the user answers 404 and is never listed or filtered, and its userName is free for a new user. A member keeps existing for /v2 (without access), so that records and history that name them still resolve; an invite is cancelled. Removes the user from every team.',
  })
  @ApiParam(USER_ID)
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('user_id') userId: string, @Headers('if-match') ifMatch: string | undefined): Promise<void> {
    await this.users.delete(auth.workspaceId, userId, ifMatch);
  }

  protected search(auth: AuthContext, query: ScimSearch): Promise<ScimListResponse> {
    return this.respond.page(query, async (page) => {
      const { total, users } = await this.users.list(auth.workspaceId, query.filter, page);
      return { total, resources: users };
    });
  }
}

/** The writer behind a SCIM request: its member, or none for a workspace service token. */
export function callerOf(auth: AuthContext): ScimCaller {
  return { actor: auth.actor, memberId: auth.kind === 'member' ? auth.memberId : null };
}
