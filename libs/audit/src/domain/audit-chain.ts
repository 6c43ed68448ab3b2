import { AUDIT_GENESIS_HASH, type AuditContent, auditContentHash, auditLinkHash } from '@workbase/shared/kernel';

/** An entry as stored: its content, its own content hash and, once sealed, its place in the chain. */
export interface StoredEntry extends AuditContent {
  readonly contentHash: string;
  readonly seq: string | null;
  readonly prevHash: string | null;
  readonly hash: string | null;
}

/** Where a chain stands: its last link (the anchor before the first entry is sealed or after a retention cut). */
export interface ChainLink {
  readonly seq: string;
  readonly hash: string;
}

export const GENESIS: ChainLink = { seq: '0', hash: AUDIT_GENESIS_HASH };

export type ChainBreakReason = 'content_altered' | 'link_broken' | 'hash_altered' | 'entry_missing';

export interface ChainBreak {
  /** The entry's place in the chain; null for an entry not sealed yet. */
  readonly seq: string | null;
  /** The entry's id; null when the entry is missing. */
  readonly id: string | null;
  readonly reason: ChainBreakReason;
}

/** An unsealed entry the sealer is about to link, in the chain's order. */
export interface EntryToSeal {
  readonly workspaceId: string;
  readonly txId: string;
  readonly entryNo: string;
  readonly contentHash: string;
}

export interface Seal {
  readonly txId: string;
  readonly entryNo: string;
  readonly seq: string;
  readonly prevHash: string;
  readonly hash: string;
}

/**
 * Links `entries` (one workspace's, in chain order) after `head`: each gets the next number, the
 * previous link and its own link hash. Answers the seals and the new head.
 */
export function sealAfter(head: ChainLink, entries: readonly EntryToSeal[]): { seals: Seal[]; head: ChainLink } {
  let seq = BigInt(head.seq);
  let prev = head.hash;
  const seals = entries.map((entry) => {
    seq += 1n;
    const hash = auditLinkHash(seq.toString(), prev, entry.contentHash);
    const seal = { txId: entry.txId, entryNo: entry.entryNo, seq: seq.toString(), prevHash: prev, hash };
    prev = hash;
    return seal;
  });
  return { seals, head: { seq: seq.toString(), hash: prev } };
}

/** Whether an entry's content still matches the hash it was written with. */
export function contentHolds(entry: StoredEntry): boolean {
  return auditContentHash(entry) === entry.contentHash;
}

/**
 * One step of the walk along a sealed chain (entries in `seq` order from the anchor): the entry
 * must come right after the last one, its content must match its content hash, its `prev_hash`
 * must be the last link and its `hash` the link of the three. Moves `state` on when it holds.
 */
export function checkChainLink(state: { seq: bigint; hash: string }, entry: StoredEntry): ChainBreak | null {
  const seq = BigInt(entry.seq ?? '0');
  if (seq !== state.seq + 1n) return { seq: (state.seq + 1n).toString(), id: null, reason: 'entry_missing' };
  if (!contentHolds(entry)) return { seq: entry.seq, id: entry.id, reason: 'content_altered' };
  if (entry.prevHash !== state.hash) return { seq: entry.seq, id: entry.id, reason: 'link_broken' };
  if (auditLinkHash(seq.toString(), state.hash, entry.contentHash) !== entry.hash) return { seq: entry.seq, id: entry.id, reason: 'hash_altered' };
  state.seq = seq;
  state.hash = entry.hash;
  return null;
}
