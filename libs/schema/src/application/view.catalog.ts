import { Inject, Injectable } from '@nestjs/common';
import { type Actor, newId, NotFoundError, ValidationError } from '@workbase/shared/kernel';
import type { Container } from '../domain/container';
import type { View, ViewAttribute, ViewChanges, ViewSort, ViewType } from '../domain/view';
import { ViewRepository } from '../infrastructure/view.repository';
import { AttributeDirectory } from './attribute.directory';
import { RECORD_VALUES, type RecordValues } from './record-values.port';

export interface NewView {
  readonly title: string;
  readonly type: ViewType;
  readonly filter?: Record<string, unknown> | null;
  readonly sorts?: readonly ViewSort[];
  readonly attributes?: readonly ViewAttribute[];
}

/**
 * The saved views of objects and lists: listed in the reference's order (view id ascending),
 * made, changed and archived by admins (Workbase has no app to make them). A view's filter and
 * sorts are checked as a record query of its container would check them, by the record engine
 * (RECORD_VALUES); its shown attributes must be the container's.
 */
@Injectable()
export class ViewCatalog {
  constructor(
    private readonly views: ViewRepository,
    private readonly attributes: AttributeDirectory,
    @Inject(RECORD_VALUES) private readonly records: RecordValues,
  ) {}

  /** A page of the container's views after `afterId`, and whether more follow. */
  async list(container: Container, page: { limit: number; afterId: string | null; showArchived: boolean }): Promise<{ views: View[]; hasMore: boolean }> {
    const views = await this.views.list(container.workspaceId, container.id, { ...page, limit: page.limit + 1 });
    return { views: views.slice(0, page.limit), hasMore: views.length > page.limit };
  }

  async get(container: Container, viewId: string): Promise<View> {
    return (await this.views.find(container.workspaceId, container.id, viewId)) ?? notFound(container, viewId);
  }

  async create(container: Container, actor: Actor, view: NewView): Promise<View> {
    await this.check(container, view);
    return this.views.insert({
      workspaceId: container.workspaceId,
      id: newId(),
      containerKind: container.kind === 'list' ? 'list' : 'object',
      containerId: container.id,
      title: view.title,
      type: view.type,
      filter: view.filter ?? null,
      sorts: view.sorts ?? [],
      attributes: view.attributes ?? [],
      createdBy: actor,
    });
  }

  async update(container: Container, viewId: string, changes: ViewChanges): Promise<View> {
    await this.check(container, changes);
    return (await this.views.update(container.workspaceId, container.id, viewId, changes)) ?? notFound(container, viewId);
  }

  private async check(container: Container, view: { filter?: Record<string, unknown> | null; sorts?: readonly ViewSort[]; attributes?: readonly ViewAttribute[] }): Promise<void> {
    if (view.filter !== undefined || view.sorts !== undefined) await this.records.checkQuery(container, { filter: view.filter ?? undefined, sorts: view.sorts });
    if (!view.attributes) return;
    const known = await this.attributes.ofContainer(container.workspaceId, container.id);
    view.attributes.forEach((shown, i) => {
      if (!known.some((a) => a.slug === shown.attribute || a.id === shown.attribute)) {
        throw new ValidationError(`data.attributes[${i}].attribute: unknown attribute "${shown.attribute}" on ${container.kind} "${container.slug}".`, { field: `data.attributes[${i}].attribute` });
      }
    });
  }
}

function notFound(container: Container, viewId: string): never {
  throw new NotFoundError(`View "${viewId}" not found on ${container.kind} "${container.slug}".`);
}
