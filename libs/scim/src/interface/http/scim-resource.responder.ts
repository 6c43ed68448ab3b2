import type { Response } from 'express';
import { entityTag, isNotModified } from '../../domain/preconditions';
import type { Page } from '../../application/scim-users.service';
import { project } from './projection';
import { pageOf, type ScimResourceQuery, type ScimSearch } from './scim-list.requests';
import { type ScimListResponse, toListResponse } from './scim.responses';

/** How one SCIM resource type (a user, a group) is shown: its schema URN, its version and its complete document. */
export interface ScimResourceShape<R> {
  readonly urn: string;
  version(resource: R): string;
  document(resource: R): { readonly meta: { readonly location: string } };
}

/**
 * The answers the Users and Groups controllers share (issue 29 part 4: their handlers spelled each
 * of these out): a created resource (201, Location, ETag), a resource read or written (ETag and
 * the projection of `attributes`/`excludedAttributes`), a read whose If-None-Match names the
 * current version (304), a write answered without a body (204 with the ETag), and a page of a search.
 */
export class ScimResourceResponder<R> {
  constructor(private readonly shape: ScimResourceShape<R>) {}

  created(resource: R, res: Response): object {
    const document = this.shape.document(resource);
    res.status(201).setHeader('Location', document.meta.location);
    res.setHeader('ETag', entityTag(this.shape.version(resource)));
    return document;
  }

  /** A resource with its ETag, projected as the query asks. */
  tagged(resource: R, query: ScimResourceQuery, res: Response): Record<string, unknown> {
    res.setHeader('ETag', entityTag(this.shape.version(resource)));
    return this.projected(resource, query);
  }

  /** GET of one resource: 304 without a body when If-None-Match names its version, else the resource. */
  read(resource: R, query: ScimResourceQuery, ifNoneMatch: string | undefined, res: Response): Record<string, unknown> | undefined {
    if (!isNotModified(ifNoneMatch, this.shape.version(resource))) return this.tagged(resource, query, res);
    return this.noContent(resource, res, 304);
  }

  /** A write answered without a body (204), or a read answered 304: the ETag and nothing else. */
  noContent(resource: R, res: Response, status: 204 | 304 = 204): undefined {
    res.status(status).setHeader('ETag', entityTag(this.shape.version(resource)));
    return undefined;
  }

  /** A page of a search: `list` reads the resources of the page that `query` names. */
  async page(query: ScimSearch, list: (page: Page) => Promise<{ total: number; resources: readonly R[] }>): Promise<ScimListResponse> {
    const page = pageOf(query.startIndex, query.count);
    const { total, resources } = await list(page);
    return toListResponse(resources.map((resource) => this.projected(resource, query)), total, page.startIndex);
  }

  private projected(resource: R, query: ScimResourceQuery): Record<string, unknown> {
    // A document is a plain JSON object; its response class only describes it.
    return project(this.shape.document(resource) as unknown as Record<string, unknown>, this.shape.urn, query.attributes, query.excludedAttributes);
  }
}
