import { Injectable } from '@nestjs/common';
import type { TrashKind } from '@workbase/shared/kernel';
import { TrashStore, type TrashEntry } from '../infrastructure/trash.store';

export type { TrashEntry };

/** Pages of a workspace's trash, newest first. */
@Injectable()
export class TrashQueries {
  constructor(private readonly store: TrashStore) {}

  async page(workspaceId: string, filter: { kind: TrashKind; containerId?: string }, limit: number, after: { deletedAt: string; id: string } | null): Promise<{ items: TrashEntry[]; hasMore: boolean }> {
    const rows = await this.store.page(workspaceId, filter, limit, after);
    return { items: rows.slice(0, limit), hasMore: rows.length > limit };
  }
}
