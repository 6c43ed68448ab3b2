import { ApiProperty } from '@nestjs/swagger';
import type { Type } from '@nestjs/common';
import type { View } from '../../domain/view';
import { VIEW_TYPES } from '../../domain/view';
import { ViewAttributeInput, ViewSortInput } from './view.requests';

class ViewPagination {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor!: string | null;
}

/** The response classes of one container kind's views (`id.object_id` or `id.list_id`). */
export interface ViewResponses {
  /** `{data: [{id, title, created_at}], pagination}`: the reference's list shape. */
  readonly page: Type<unknown>;
  /** `{data: view}` with filter, sorts and shown attributes: the alpha shape. */
  readonly one: Type<unknown>;
}

export function viewResponses(kind: 'object' | 'list'): ViewResponses {
  const key = `${kind}_id`;
  class ViewId {
    @ApiProperty({ format: 'uuid' }) workspace_id!: string;
    @ApiProperty({ format: 'uuid' }) [key]!: string;
    @ApiProperty({ format: 'uuid' }) view_id!: string;
  }
  Object.defineProperty(ViewId, 'name', { value: kind === 'object' ? 'ObjectViewId' : 'ListViewId' });
  class ViewSummary {
    @ApiProperty({ type: ViewId }) id!: ViewId;
    @ApiProperty() title!: string;
    @ApiProperty() created_at!: string;
  }
  Object.defineProperty(ViewSummary, 'name', { value: kind === 'object' ? 'ObjectView' : 'ListView' });
  class ViewDetail extends ViewSummary {
    @ApiProperty({ enum: VIEW_TYPES }) type!: string;
    @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'A record query filter, or null' }) filter!: Record<string, unknown> | null;
    @ApiProperty({ type: [ViewSortInput] }) sorts!: ViewSortInput[];
    @ApiProperty({ type: [ViewAttributeInput] }) attributes!: ViewAttributeInput[];
    @ApiProperty() is_archived!: boolean;
  }
  Object.defineProperty(ViewDetail, 'name', { value: kind === 'object' ? 'ObjectViewDetail' : 'ListViewDetail' });
  class Page {
    @ApiProperty({ type: [ViewSummary] }) data!: ViewSummary[];
    @ApiProperty({ type: ViewPagination }) pagination!: ViewPagination;
  }
  Object.defineProperty(Page, 'name', { value: kind === 'object' ? 'ObjectViewPage' : 'ListViewPage' });
  class One {
    @ApiProperty({ type: ViewDetail }) data!: ViewDetail;
  }
  Object.defineProperty(One, 'name', { value: kind === 'object' ? 'ObjectViewEnvelope' : 'ListViewEnvelope' });
  return { page: Page, one: One };
}

function viewId(view: View): Record<string, string> {
  return { workspace_id: view.workspaceId, [`${view.containerKind}_id`]: view.containerId, view_id: view.id };
}

/** The list item: exactly the reference's `ObjectView`/`ListView`. */
export function toViewSummary(view: View) {
  return { id: viewId(view), title: view.title, created_at: view.createdAt };
}

/** One view in the alpha shape. */
export function toViewDetail(view: View) {
  return {
    id: viewId(view),
    title: view.title,
    created_at: view.createdAt,
    type: view.type,
    filter: view.filter,
    sorts: view.sorts.map((sort) => ({ attribute: sort.attribute, ...(sort.field === undefined ? {} : { field: sort.field }), direction: sort.direction })),
    attributes: view.attributes.map((shown) => ({ attribute: shown.attribute, ...(shown.field === undefined ? {} : { field: shown.field }) })),
    is_archived: view.isArchived,
  };
}
