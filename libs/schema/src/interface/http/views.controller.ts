import { Body, Controller, HttpCode, Get, Inject, Param, ParseUUIDPipe, Patch, Post, Query, type Type, UsePipes, applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, CursorCodec, type PathParams, RejectNulPipe, type ResolvesPathIds, ScopedOperation, validatedBody } from '@workbase/shared/http';
import { NotFoundError, type Scope, SCOPES } from '@workbase/shared/kernel';
import { ViewCatalog } from '../../application/view.catalog';
import type { Container } from '../../domain/container';
import type { ContainerLookup } from './attributes.controller';
import { ListViewsQuery, VIEW_PAGE, ViewCreateRequest, ViewUpdateRequest } from './view.requests';
import { toViewDetail, toViewSummary, viewResponses } from './view.responses';

export interface ViewTarget {
  readonly kind: 'object' | 'list';
  /** The container's configuration read scope: all the reference asks to list its views. */
  readonly readScopes: readonly Scope[];
  readonly lookup: ContainerLookup;
}

/** A view id that is not a UUID names no view: 404, as for records. */
const viewIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('View not found: view_id must be a UUID.') });

/** Marks an operation as alpha: `x-alpha: true` in the document (the reference documents these routes only as alpha). */
const Alpha = () => applyDecorators(ApiExtension('x-alpha', true));
const ALPHA_NOTE = 'Alpha (the reference documents this route as alpha; its shape may change). ';

/**
 * The views of one container kind (`/v2/objects/{object}/views`, `/v2/lists/{list}/views`): the
 * reference's list, and the alpha get, create and update (archive: `is_archived: true`). Writes
 * resolve the container before they validate the body, so another workspace's ids are a 404.
 */
export function createViewsController(target: ViewTarget): Type<unknown> {
  const noun = target.kind;
  const containerParam = { name: noun, description: `${noun} UUID or api_slug` };
  const viewParam = { name: 'view_id', description: 'View UUID' };
  const responses = viewResponses(noun);
  const cursorKind = `${noun}_views`;
  // The reference's alpha "get a list view" needs `view:read` + `list_configuration:read`; its
  // create pages name no scopes, so writes follow its pattern for a resource hung on a container
  // (files: `file:read-write` + the configuration read).
  const viewReadScopes = [SCOPES.viewRead, ...target.readScopes];
  const viewWriteScopes = [SCOPES.viewReadWrite, ...target.readScopes];

  @ApiTags('Views')
  @UsePipes(RejectNulPipe)
  @Controller(`v2/${noun}s/:${noun}/views`)
  class ViewsController implements ResolvesPathIds {
    constructor(
      private readonly views: ViewCatalog,
      private readonly cursors: CursorCodec,
      @Inject(target.lookup.service) private readonly lookupService: object,
    ) {}

    /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
    async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
      const container = await this.container(auth, params[noun]!);
      if (params.view_id !== undefined) await this.views.get(container, (await viewIdPipe.transform(params.view_id, { type: 'param' }))!);
    }

    @Get()
    @ScopedOperation({
      scopes: target.readScopes,
      summary: `List ${noun} views`,
      description: `By \`id.view_id\` ascending; archived views only with \`show_archived=true\`. \`limit\` 1–${VIEW_PAGE.max} (default ${VIEW_PAGE.default}), cursor pagination.`,
      params: [containerParam],
      ok: responses.page,
    })
    async list(@CurrentAuth() auth: AuthContext, @Param(noun) identifier: string, @Query() query: ListViewsQuery) {
      const container = await this.container(auth, identifier);
      const binding = { workspace: auth.workspaceId, container: container.id, limit: query.limit ?? VIEW_PAGE.default, show_archived: query.show_archived ?? false };
      const after = query.cursor === undefined ? null : String(this.cursors.decode(cursorKind, binding, query.cursor).id);
      const page = await this.views.list(container, { limit: binding.limit, afterId: after, showArchived: binding.show_archived });
      const last = page.views[page.views.length - 1];
      return { data: page.views.map(toViewSummary), pagination: { next_cursor: page.hasMore && last ? this.cursors.encode(cursorKind, binding, { id: last.id }) : null } };
    }

    @Get(':view_id')
    @Alpha()
    @ScopedOperation({
      scopes: viewReadScopes,
      summary: `Get a ${noun} view (alpha)`,
      description: `${ALPHA_NOTE}The view with its type, filter, sorts and shown attributes.`,
      params: [containerParam, viewParam],
      ok: responses.one,
    })
    async get(@CurrentAuth() auth: AuthContext, @Param(noun) identifier: string, @Param('view_id', viewIdPipe) viewId: string) {
      const container = await this.container(auth, identifier);
      return { data: toViewDetail(await this.views.get(container, viewId)) };
    }

    @Post()
    @HttpCode(200)
    @Alpha()
    @ScopedOperation({
      scopes: viewWriteScopes,
      summary: `Create a ${noun} view (alpha)`,
      description: `${ALPHA_NOTE}\`filter\` and \`sorts\` are checked as a record query of the ${noun} checks them (400 \`filter_error\` naming what is wrong); shown \`attributes\` must be the ${noun}'s.`,
      params: [containerParam],
      ok: responses.one,
    })
    @ApiBody({ type: ViewCreateRequest })
    async create(@CurrentAuth() auth: AuthContext, @Param(noun) identifier: string, @Body() raw: unknown) {
      const container = await this.container(auth, identifier);
      const { data } = await validatedBody(ViewCreateRequest, raw);
      const view = await this.views.create(container, auth.actor, { title: data.title, type: data.type, filter: data.filter, sorts: data.sorts, attributes: data.attributes });
      return { data: toViewDetail(view) };
    }

    @Patch(':view_id')
    @Alpha()
    @ScopedOperation({
      scopes: viewWriteScopes,
      summary: `Update or archive a ${noun} view (alpha)`,
      description: `${ALPHA_NOTE}Changes the fields given; \`filter: null\` removes the filter; \`is_archived: true\` archives the view.`,
      params: [containerParam, viewParam],
      ok: responses.one,
    })
    @ApiBody({ type: ViewUpdateRequest })
    async update(@CurrentAuth() auth: AuthContext, @Param(noun) identifier: string, @Param('view_id', viewIdPipe) viewId: string, @Body() raw: unknown) {
      const container = await this.container(auth, identifier);
      await this.views.get(container, viewId); // another workspace's (or container's) view is a 404 whatever the body
      const { data } = await validatedBody(ViewUpdateRequest, raw);
      const view = await this.views.update(container, viewId, {
        title: data.title,
        type: data.type,
        filter: data.filter,
        sorts: data.sorts,
        attributes: data.attributes,
        isArchived: data.is_archived,
      });
      return { data: toViewDetail(view) };
    }

    private container(auth: AuthContext, identifier: string): Promise<Container> {
      return target.lookup.resolve(this.lookupService, auth.workspaceId, identifier);
    }
  }
  Object.defineProperty(ViewsController, 'name', { value: noun === 'object' ? 'ObjectViewsController' : 'ListViewsController' });
  return ViewsController;
}
