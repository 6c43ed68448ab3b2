import { Body, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth } from '@workbase/shared/http';
import { ScimRead } from './scim-docs';
import { ApiScimListQuery, ScimListParams, type ScimListQuery, type ScimSearch, searchRequestOf } from './scim-list.requests';
import { ScimListResponse, ScimSearchRequest } from './scim.responses';

export interface ScimSearchDocs {
  /** The resources, plural, as the summaries name them ("users", "groups (teams)"). */
  readonly plural: string;
  readonly listDescription: string;
}

/**
 * The two reads of a page of resources that Users and Groups share (issue 29 part 4): `GET` with
 * the query string and `POST /.search` with a SearchRequest body, both answered by the
 * controller's `search`. A controller extends the class this makes, so that each keeps its own
 * summaries while the handlers, their scopes and their documented errors are written once.
 */
export function ScimSearchHandlers(docs: ScimSearchDocs) {
  abstract class SearchHandlers {
    /** One page of the resources that `query` asks for. */
    protected abstract search(auth: AuthContext, query: ScimSearch): Promise<ScimListResponse>;

    @Get()
    @ScimRead(400)
    @ApiOperation({ summary: `List ${docs.plural}`, description: docs.listDescription })
    @ApiOkResponse({ type: ScimListResponse })
    @ApiScimListQuery()
    async list(@CurrentAuth() auth: AuthContext, @ScimListParams() query: ScimListQuery): Promise<ScimListResponse> {
      return this.search(auth, query);
    }

    @Post('.search')
    @HttpCode(200)
    @ScimRead(400)
    @ApiOperation({ summary: `Search ${docs.plural} (POST /.search)` })
    @ApiBody({ type: ScimSearchRequest })
    @ApiOkResponse({ type: ScimListResponse })
    async searchByPost(@CurrentAuth() auth: AuthContext, @Body() body: unknown): Promise<ScimListResponse> {
      return this.search(auth, searchRequestOf(body));
    }
  }
  return SearchHandlers;
}
