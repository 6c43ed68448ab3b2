import type { Actor } from '@workbase/shared/kernel';

/** How a view lays its records out (the reference's views are tables or boards). */
export const VIEW_TYPES = ['table', 'board'] as const;
export type ViewType = (typeof VIEW_TYPES)[number];

/** A sort of a view, as a record query takes it. */
export interface ViewSort {
  readonly attribute: string;
  readonly field?: string;
  readonly direction: 'asc' | 'desc';
}

/** An attribute a view shows (and, for a composite type, which of its fields). */
export interface ViewAttribute {
  readonly attribute: string;
  readonly field?: string;
}

/** A saved view of an object's records or a list's entries (the reference's alpha shape). */
export interface View {
  readonly workspaceId: string;
  readonly id: string;
  readonly containerKind: 'object' | 'list';
  readonly containerId: string;
  readonly title: string;
  readonly type: ViewType;
  /** A record query filter (verbose or shorthand), or null: every record. */
  readonly filter: Record<string, unknown> | null;
  readonly sorts: readonly ViewSort[];
  readonly attributes: readonly ViewAttribute[];
  readonly isArchived: boolean;
  readonly createdBy: Actor;
  readonly createdAt: string;
}

export type ViewChanges = Partial<Pick<View, 'title' | 'type' | 'filter' | 'sorts' | 'attributes' | 'isArchived'>>;
