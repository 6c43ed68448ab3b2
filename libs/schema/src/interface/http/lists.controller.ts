import { Body, Controller, Get, HttpCode, Param, Patch, Post, UsePipes } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, type PathParams, RejectNulPipe, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { ListCatalog } from '../../application/list.catalog';
import type { ListWithAccess } from '../../domain/list-definition';
import { ObjectDirectory } from '../../application/object.directory';
import { ListCreateRequest, ListUpdateRequest } from './list.requests';
import { ListEnvelope, ListListEnvelope, toListResponse } from './list.responses';

const listParam = { name: 'list', description: 'List UUID or api_slug' };

@ApiTags('Lists')
@UsePipes(RejectNulPipe)
@Controller('v2/lists')
export class ListsController implements ResolvesPathIds {
  constructor(
    private readonly lists: ListCatalog,
    private readonly objects: ObjectDirectory,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    await this.lists.get(auth.workspaceId, params.list!);
  }

  private async present(list: ListWithAccess) {
    return toListResponse(list, (await this.objects.find(list.workspaceId, list.parentObjectId))?.apiSlug ?? list.parentObjectId);
  }

  @Get()
  @ScopedOperation({ scopes: [SCOPES.listConfigurationRead], summary: 'List lists', ok: ListListEnvelope, standardErrors: false })
  async list(@CurrentAuth() auth: AuthContext): Promise<ListListEnvelope> {
    return { data: await Promise.all((await this.lists.list(auth.workspaceId)).map((list) => this.present(list))) };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({ scopes: [SCOPES.listConfigurationReadWrite], summary: 'Create a list', ok: ListEnvelope, conflict: '`slug_conflict`' })
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
  @ScopedOperation({ scopes: [SCOPES.listConfigurationRead], summary: 'Get a list', params: [listParam], ok: ListEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('list') list: string): Promise<ListEnvelope> {
    return { data: await this.present(await this.lists.get(auth.workspaceId, list)) };
  }

  @Patch(':list')
  @ScopedOperation({ scopes: [SCOPES.listConfigurationReadWrite], summary: 'Update a list', params: [listParam], ok: ListEnvelope })
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
