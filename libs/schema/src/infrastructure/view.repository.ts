import { Injectable } from '@nestjs/common';
import type { Actor } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { View, ViewChanges, ViewType } from '../domain/view';

interface RawView {
  id: string;
  container_kind: 'object' | 'list';
  container_id: string;
  title: string;
  type: ViewType;
  filter: Record<string, unknown> | null;
  sorts: View['sorts'];
  attributes: View['attributes'];
  is_archived: boolean;
  created_by: Actor;
  created_at: string;
}

const COLUMNS = `id, container_kind, container_id, title, type, filter, sorts, attributes, is_archived, created_by,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

/** The views of objects and lists, by workspace first; listed by view id (the reference's order). */
@Injectable()
export class ViewRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  async insert(view: Omit<View, 'createdAt' | 'isArchived'>): Promise<View> {
    const rows = await this.transactions.query<RawView>(
      `INSERT INTO views (workspace_id, id, container_kind, container_id, title, type, filter, sorts, attributes, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, $10::jsonb) RETURNING ${COLUMNS}`,
      [view.workspaceId, view.id, view.containerKind, view.containerId, view.title, view.type, jsonOrNull(view.filter), JSON.stringify(view.sorts), JSON.stringify(view.attributes), JSON.stringify(view.createdBy)],
    );
    return toView(view.workspaceId, rows[0]);
  }

  async find(workspaceId: string, containerId: string, viewId: string): Promise<View | null> {
    const rows = await this.transactions.query<RawView>(
      `SELECT ${COLUMNS} FROM views WHERE workspace_id = $1 AND container_id = $2 AND id = $3`,
      [workspaceId, containerId, viewId],
    );
    return rows[0] ? toView(workspaceId, rows[0]) : null;
  }

  /** A page of a container's views after `afterId` (keyset on the id), archived ones only when asked; one more than `limit` tells a next page. */
  async list(workspaceId: string, containerId: string, page: { limit: number; afterId: string | null; showArchived: boolean }): Promise<View[]> {
    const rows = await this.transactions.query<RawView>(
      `SELECT ${COLUMNS} FROM views
        WHERE workspace_id = $1 AND container_id = $2 AND ($3::uuid IS NULL OR id > $3::uuid) AND ($4 OR NOT is_archived)
        ORDER BY id LIMIT $5`,
      [workspaceId, containerId, page.afterId, page.showArchived, page.limit],
    );
    return rows.map((row) => toView(workspaceId, row));
  }

  /** Changes the fields given of the container's view and answers it as left; null when the container has no such view. */
  async update(workspaceId: string, containerId: string, viewId: string, changes: ViewChanges): Promise<View | null> {
    const params: unknown[] = [workspaceId, containerId, viewId];
    const sets: string[] = [];
    const set = (column: string, value: unknown, cast = '') => sets.push(`${column} = $${params.push(value)}${cast}`);
    if (changes.title !== undefined) set('title', changes.title);
    if (changes.type !== undefined) set('type', changes.type);
    if (changes.filter !== undefined) set('filter', jsonOrNull(changes.filter), '::jsonb');
    if (changes.sorts !== undefined) set('sorts', JSON.stringify(changes.sorts), '::jsonb');
    if (changes.attributes !== undefined) set('attributes', JSON.stringify(changes.attributes), '::jsonb');
    if (changes.isArchived !== undefined) set('is_archived', changes.isArchived);
    if (sets.length === 0) return this.find(workspaceId, containerId, viewId);
    const rows = await this.transactions.query<RawView>(
      `UPDATE views SET ${sets.join(', ')} WHERE workspace_id = $1 AND container_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
      params,
    );
    return rows[0] ? toView(workspaceId, rows[0]) : null;
  }
}

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function toView(workspaceId: string, row: RawView): View {
  return {
    workspaceId,
    id: row.id,
    containerKind: row.container_kind,
    containerId: row.container_id,
    title: row.title,
    type: row.type,
    filter: row.filter,
    sorts: row.sorts,
    attributes: row.attributes,
    isArchived: row.is_archived,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}
