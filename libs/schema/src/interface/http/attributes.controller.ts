import { Body, Controller, HttpCode, Get, Inject, Param, Patch, Post, Query, type Type, UsePipes } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, type PathParams, RejectNulPipe, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import type { Scope } from '@workbase/shared/kernel';
import { AttributeCatalog } from '../../application/attribute.catalog';
import type { Container } from '../../domain/container';
import { AttributePresenter } from './attribute-presenter';
import {
  AttributeCreateRequest,
  AttributeUpdateRequest,
  ListAttributesQuery,
  OptionCreateRequest,
  OptionUpdateRequest,
  ShowArchivedQuery,
  StatusCreateRequest,
  StatusUpdateRequest,
} from './attribute.requests';
import {
  AttributeEnvelope,
  AttributeListEnvelope,
  SelectOptionEnvelope,
  SelectOptionListEnvelope,
  StatusEnvelope,
  StatusListEnvelope,
  toOptionResponse,
  toStatusResponse,
} from './attribute.responses';

/** Resolves a path identifier of one target (objects, lists, activities) to a container: a service the controller injects, and the call on it. */
export interface ContainerLookup {
  readonly service: Type<object>;
  resolve(service: object, workspaceId: string, identifier: string): Promise<Container>;
}

/** A ContainerLookup through `service` (e.g. `containerLookup(ContainerResolver, (containers, ws, id) => containers.list(ws, id))`). */
export function containerLookup<S extends object>(service: Type<S>, resolve: (service: S, workspaceId: string, identifier: string) => Promise<Container>): ContainerLookup {
  return { service, resolve: (instance, workspaceId, identifier) => resolve(instance as S, workspaceId, identifier) };
}

export interface AttributeTarget {
  /** Path segment: `objects`, `lists` or `activities`. */
  readonly path: string;
  readonly noun: string;
  readonly tag: string;
  readonly readScopes: readonly Scope[];
  readonly writeScopes: readonly Scope[];
  /** How a path identifier of this target becomes a container. */
  readonly lookup: ContainerLookup;
}

/**
 * The attribute endpoints of one container target. Each target gets its own controller class so
 * that its scopes are declared (and documented) per route, while the behaviour is shared.
 */
export function createAttributesController(target: AttributeTarget): Type<unknown> {
  const param = { name: 'identifier', description: `${target.noun} UUID or api_slug` };
  const attributeParam = { name: 'attribute', description: 'Attribute UUID or api_slug' };

  @ApiTags(target.tag)
  @UsePipes(RejectNulPipe)
  @Controller(`v2/${target.path}/:identifier/attributes`)
  class AttributesController implements ResolvesPathIds {
    constructor(
      private readonly catalog: AttributeCatalog,
      private readonly presenter: AttributePresenter,
      @Inject(target.lookup.service) private readonly lookupService: object,
    ) {}

    /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
    async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
      const container = await this.container(auth, params.identifier!);
      if (params.attribute === undefined) return;
      if (params.option !== undefined) await this.catalog.getOption(container, params.attribute, params.option);
      else if (params.status !== undefined) await this.catalog.getStatus(container, params.attribute, params.status);
      else await this.catalog.get(container, params.attribute);
    }

    @Get()
    @ScopedOperation({
      scopes: target.readScopes,
      summary: `List ${target.noun} attributes`,
      description: 'In display order. Inherited schema attributes are listed like custom ones.',
      params: [param],
      ok: AttributeListEnvelope,
    })
    async list(@CurrentAuth() auth: AuthContext, @Param('identifier') identifier: string, @Query() query: ListAttributesQuery): Promise<AttributeListEnvelope> {
      const container = await this.container(auth, identifier);
      const attributes = await this.catalog.list(container, { limit: query.limit, offset: query.offset, showArchived: query.show_archived });
      return { data: await this.presenter.present(attributes) };
    }

    @Post()
    @HttpCode(200)
    @ScopedOperation({
      scopes: target.writeScopes,
      summary: `Create a ${target.noun} attribute`,
      params: [param],
      ok: AttributeEnvelope,
      conflict: '`slug_conflict`: the api_slug is taken',
    })
    async create(@CurrentAuth() auth: AuthContext, @Param('identifier') identifier: string, @Body() body: AttributeCreateRequest): Promise<AttributeEnvelope> {
      const container = await this.container(auth, identifier);
      const d = body.data;
      const attribute = await this.catalog.create(
        container,
        {
          title: d.title,
          description: d.description ?? null,
          apiSlug: d.api_slug,
          type: d.type,
          isRequired: d.is_required,
          isUnique: d.is_unique,
          isMultiselect: d.is_multiselect,
          defaultValue: d.default_value,
          config: d.config,
          relationship: d.relationship ?? null,
        },
        auth.actor,
      );
      return { data: await this.presenter.presentOne(attribute) };
    }

    @Get(':attribute')
    @ScopedOperation({ scopes: target.readScopes, summary: `Get a ${target.noun} attribute`, params: [param, attributeParam], ok: AttributeEnvelope })
    async get(@CurrentAuth() auth: AuthContext, @Param('identifier') identifier: string, @Param('attribute') attribute: string): Promise<AttributeEnvelope> {
      const container = await this.container(auth, identifier);
      return { data: await this.presenter.presentOne(await this.catalog.get(container, attribute)) };
    }

    @Patch(':attribute')
    @ScopedOperation({
      scopes: target.writeScopes,
      summary: `Update a ${target.noun} attribute`,
      description: 'System attributes: 400 `system_edit_unauthorized`; inherited attributes: 400.',
      params: [param, attributeParam],
      ok: AttributeEnvelope,
      conflict: '`slug_conflict`: the new api_slug is taken',
    })
    async update(
      @CurrentAuth() auth: AuthContext,
      @Param('identifier') identifier: string,
      @Param('attribute') attributeKey: string,
      @Body() body: AttributeUpdateRequest,
    ): Promise<AttributeEnvelope> {
      const container = await this.container(auth, identifier);
      const d = body.data;
      const attribute = await this.catalog.update(
        container,
        attributeKey,
        {
          title: d.title,
          description: d.description,
          apiSlug: d.api_slug,
          isRequired: d.is_required,
          isUnique: d.is_unique,
          defaultValue: d.default_value,
          config: d.config,
          isArchived: d.is_archived,
        },
        auth.actor,
      );
      return { data: await this.presenter.presentOne(attribute) };
    }

    @Get(':attribute/options')
    @ScopedOperation({ scopes: target.readScopes, summary: 'List select options', params: [param, attributeParam], ok: SelectOptionListEnvelope })
    async listOptions(
      @CurrentAuth() auth: AuthContext,
      @Param('identifier') identifier: string,
      @Param('attribute') attributeKey: string,
      @Query() query: ShowArchivedQuery,
    ): Promise<SelectOptionListEnvelope> {
      const container = await this.container(auth, identifier);
      const { attribute, options } = await this.catalog.listOptions(container, attributeKey, query.show_archived ?? false);
      return { data: options.map((option) => toOptionResponse(attribute, option)) };
    }

    @Post(':attribute/options')
    @HttpCode(200)
    @ScopedOperation({
      scopes: target.writeScopes,
      summary: 'Create a select option',
      params: [param, attributeParam],
      ok: SelectOptionEnvelope,
      conflict: '`slug_conflict`: the title is taken',
    })
    async createOption(
      @CurrentAuth() auth: AuthContext,
      @Param('identifier') identifier: string,
      @Param('attribute') attributeKey: string,
      @Body() body: OptionCreateRequest,
    ): Promise<SelectOptionEnvelope> {
      const container = await this.container(auth, identifier);
      const { attribute, option } = await this.catalog.createOption(container, attributeKey, body.data.title);
      return { data: toOptionResponse(attribute, option) };
    }

    @Patch(':attribute/options/:option')
    @ScopedOperation({
      scopes: target.writeScopes,
      summary: 'Update a select option',
      description: '`{option}` is the option UUID or its title. Archive instead of deleting.',
      params: [param, attributeParam, { name: 'option', description: 'Option UUID or title' }],
      ok: SelectOptionEnvelope,
      conflict: '`slug_conflict`: the new title is taken',
    })
    async updateOption(
      @CurrentAuth() auth: AuthContext,
      @Param('identifier') identifier: string,
      @Param('attribute') attributeKey: string,
      @Param('option') optionKey: string,
      @Body() body: OptionUpdateRequest,
    ): Promise<SelectOptionEnvelope> {
      const container = await this.container(auth, identifier);
      const { attribute, option } = await this.catalog.updateOption(container, attributeKey, optionKey, { title: body.data.title, isArchived: body.data.is_archived });
      return { data: toOptionResponse(attribute, option) };
    }

    @Get(':attribute/statuses')
    @ScopedOperation({
      scopes: target.readScopes,
      summary: 'List statuses',
      params: [param, attributeParam],
      ok: StatusListEnvelope,
    })
    async listStatuses(
      @CurrentAuth() auth: AuthContext,
      @Param('identifier') identifier: string,
      @Param('attribute') attributeKey: string,
      @Query() query: ShowArchivedQuery,
    ): Promise<StatusListEnvelope> {
      const container = await this.container(auth, identifier);
      const { attribute, statuses } = await this.catalog.listStatuses(container, attributeKey, query.show_archived ?? false);
      return { data: statuses.map((status) => toStatusResponse(attribute, status)) };
    }

    @Post(':attribute/statuses')
    @HttpCode(200)
    @ScopedOperation({
      scopes: target.writeScopes,
      summary: 'Create a status',
      params: [param, attributeParam],
      ok: StatusEnvelope,
      conflict: '`slug_conflict`: the title is taken',
    })
    async createStatus(
      @CurrentAuth() auth: AuthContext,
      @Param('identifier') identifier: string,
      @Param('attribute') attributeKey: string,
      @Body() body: StatusCreateRequest,
    ): Promise<StatusEnvelope> {
      const container = await this.container(auth, identifier);
      const { attribute, status } = await this.catalog.createStatus(container, attributeKey, {
        title: body.data.title,
        celebrationEnabled: body.data.celebration_enabled,
        targetTimeInStatus: body.data.target_time_in_status,
      });
      return { data: toStatusResponse(attribute, status) };
    }

    @Patch(':attribute/statuses/:status')
    @ScopedOperation({
      scopes: target.writeScopes,
      summary: 'Update a status',
      description: '`{status}` is the status UUID or its title.',
      params: [param, attributeParam, { name: 'status', description: 'Status UUID or title' }],
      ok: StatusEnvelope,
      conflict: '`slug_conflict`: the new title is taken',
    })
    async updateStatus(
      @CurrentAuth() auth: AuthContext,
      @Param('identifier') identifier: string,
      @Param('attribute') attributeKey: string,
      @Param('status') statusKey: string,
      @Body() body: StatusUpdateRequest,
    ): Promise<StatusEnvelope> {
      const container = await this.container(auth, identifier);
      const { attribute, status } = await this.catalog.updateStatus(container, attributeKey, statusKey, {
        title: body.data.title,
        isArchived: body.data.is_archived,
        celebrationEnabled: body.data.celebration_enabled,
        targetTimeInStatus: body.data.target_time_in_status,
      });
      return { data: toStatusResponse(attribute, status) };
    }

    private container(auth: AuthContext, identifier: string): Promise<Container> {
      return target.lookup.resolve(this.lookupService, auth.workspaceId, identifier);
    }

  }

  Object.defineProperty(AttributesController, 'name', { value: `${target.tag.replace(/\W/g, '')}AttributesController` });
  return AttributesController;
}
