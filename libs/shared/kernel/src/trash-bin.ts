import type { Actor } from './actor';

/** What a delete can put in the trash: the kinds `/v2/trash/{kind}` names. */
export const TRASH_KINDS = ['records', 'entries', 'notes', 'tasks', 'comments'] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];

export interface TrashedItem {
  readonly workspaceId: string;
  readonly kind: TrashKind;
  readonly id: string;
  readonly actor: Actor;
  /** The object of a record or the list of an entry (what `GET /v2/trash?object=|list=` filters on). */
  readonly containerId?: string;
}

/**
 * Keeps what a delete is about to remove, so that it can be restored. Each context's delete calls
 * it inside its deleting transaction, before its rows go; the trash context implements it and the
 * composition root binds it under TRASH_BIN. Here, in the kernel, because the deleting contexts
 * and the trash (which rebuilds their events on restore) would otherwise depend on each other.
 */
export interface TrashBin {
  keep(item: TrashedItem): Promise<void>;
}

export const TRASH_BIN = Symbol('TRASH_BIN');
