import { Injectable } from '@nestjs/common';
import { DomainError } from '@workbase/shared/kernel';
import type { Container } from '../domain/container';
import { ViewRepository } from '../infrastructure/view.repository';

/** The views of objects and lists as the record engine reads them: the filter of a query's `filter_view_id`. */
@Injectable()
export class ViewDirectory {
  constructor(private readonly views: ViewRepository) {}

  /** The view's filter (null: none); a view that is not the container's is 400 `value_not_found` naming `filter_view_id`. */
  async filterFor(container: Container, viewId: string): Promise<Record<string, unknown> | null> {
    const view = await this.views.find(container.workspaceId, container.id, viewId);
    if (!view) throw new DomainError('value_not_found', `filter_view_id: no view "${viewId}" on ${container.kind} "${container.slug}".`, { field: 'filter_view_id' });
    return view.filter;
  }
}
