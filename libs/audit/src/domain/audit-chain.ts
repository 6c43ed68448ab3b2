import { createHash } from 'node:crypto';

/**
 * The fields of an audit entry that its hashes cover, as the database shows them in text:
 * `occurred_at` in UTC to the microsecond, jsonb columns in jsonb's canonical text form (keys
 * sorted, one spacing) — the same text the insert trigger hashed (migration AuditLog).
 */
export interface ChainedEntry {
  readonly workspaceId: string;
  readonly seq: string;
  readonly id: string;
  readonly occurredAt: string;
  readonly actor: string;
  readonly actorId: string | null;
  readonly requestId: string | null;
  readonly action: string;
  readonly targetKind: string;
  readonly targetId: string;
  readonly target: string;
  readonly changes: string | null;
  readonly prevHash: string;
  readonly contentHash: string;
  readonly hash: string;
}

/** Where a chain starts: the hash before its first kept entry (zeros, or the last entry a retention cut removed). */
export interface ChainAnchor {
  readonly seq: string;
  readonly hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);

/** The canonical text of an entry: every field but the hashes, one per line, in a fixed order. */
export function canonicalText(entry: ChainedEntry): string {
  return [
    entry.workspaceId,
    entry.seq,
    entry.id,
    entry.occurredAt,
    entry.actor,
    entry.actorId ?? '',
    entry.requestId ?? '',
    entry.action,
    entry.targetKind,
    entry.targetId,
    entry.target,
    entry.changes ?? 'null',
  ].join('\n');
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export type ChainBreak =
  | { readonly seq: string; readonly id: string | null; readonly reason: 'content_altered' | 'link_broken' | 'hash_altered' | 'entry_missing' };

/**
 * Walks a chain from its anchor, entry by entry (in `seq` order), and answers the first entry that
 * does not hold: its content no longer matches its content hash, its `prev_hash` is not the
 * previous entry's hash, its own hash is not the hash of the two, or an entry before it is gone.
 * `state` carries the walk across batches.
 */
export function checkChainLink(state: { seq: bigint; hash: string }, entry: ChainedEntry): ChainBreak | null {
  const seq = BigInt(entry.seq);
  if (seq !== state.seq + 1n) return { seq: (state.seq + 1n).toString(), id: null, reason: 'entry_missing' };
  if (sha256(canonicalText(entry)) !== entry.contentHash) return { seq: entry.seq, id: entry.id, reason: 'content_altered' };
  if (entry.prevHash !== state.hash) return { seq: entry.seq, id: entry.id, reason: 'link_broken' };
  if (sha256(entry.prevHash + entry.contentHash) !== entry.hash) return { seq: entry.seq, id: entry.id, reason: 'hash_altered' };
  state.seq = seq;
  state.hash = entry.hash;
  return null;
}

/** The hashes the trigger computes for an entry (for tests and tools that build a chain by hand). */
export function chainHashes(prevHash: string, entry: Omit<ChainedEntry, 'prevHash' | 'contentHash' | 'hash'>): { contentHash: string; hash: string } {
  const contentHash = sha256(canonicalText({ ...entry, prevHash, contentHash: '', hash: '' }));
  return { contentHash, hash: sha256(prevHash + contentHash) };
}
