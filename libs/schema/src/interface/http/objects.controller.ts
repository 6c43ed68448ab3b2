import { Body, Controller, HttpCode, Get, Param, Patch, Post, UsePipes } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, type PathParams, RejectNulPipe, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { ObjectCatalog } from '../../application/object.catalog';
import { ObjectCreateRequest, ObjectUpdateRequest } from './object.requests';
import { ObjectEnvelope, ObjectListEnvelope, toObjectResponse } from './object.responses';

@ApiTags('Objects')
@UsePipes(RejectNulPipe)
@Controller('v2/objects')
export class ObjectsController implements ResolvesPathIds {
  constructor(private readonly objects: ObjectCatalog) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    await this.objects.get(auth.workspaceId, params.object!);
  }

  @Get()
  @ScopedOperation({
    scopes: [SCOPES.objectConfigurationRead],
    summary: 'List objects',
    description: 'The standard objects (people, companies, deals, users, workspaces) and custom ones.',
    ok: ObjectListEnvelope,
    standardErrors: false,
  })
  async list(@CurrentAuth() auth: AuthContext): Promise<ObjectListEnvelope> {
    return { data: (await this.objects.list(auth.workspaceId)).map(toObjectResponse) };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({ scopes: [SCOPES.objectConfigurationReadWrite], summary: 'Create an object', ok: ObjectEnvelope, conflict: '`slug_conflict`: the api_slug is taken' })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: ObjectCreateRequest): Promise<ObjectEnvelope> {
    const object = await this.objects.create(auth.workspaceId, { apiSlug: body.data.api_slug, singularNoun: body.data.singular_noun, pluralNoun: body.data.plural_noun });
    return { data: toObjectResponse(object) };
  }

  @Get(':object')
  @ScopedOperation({ scopes: [SCOPES.objectConfigurationRead], summary: 'Get an object', params: [{ name: 'object', description: 'Object UUID or api_slug' }], ok: ObjectEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('object') object: string): Promise<ObjectEnvelope> {
    return { data: toObjectResponse(await this.objects.get(auth.workspaceId, object)) };
  }

  @Patch(':object')
  @ScopedOperation({
    scopes: [SCOPES.objectConfigurationReadWrite],
    summary: 'Update an object',
    description: 'Changes api_slug (not of standard objects) and nouns.',
    params: [{ name: 'object', description: 'Object UUID or api_slug' }],
    ok: ObjectEnvelope,
    conflict: '`slug_conflict`: the api_slug is taken',
  })
  async update(@CurrentAuth() auth: AuthContext, @Param('object') object: string, @Body() body: ObjectUpdateRequest): Promise<ObjectEnvelope> {
    const updated = await this.objects.update(auth.workspaceId, object, {
      apiSlug: body.data.api_slug,
      singularNoun: body.data.singular_noun,
      pluralNoun: body.data.plural_noun,
    });
    return { data: toObjectResponse(updated) };
  }
}
