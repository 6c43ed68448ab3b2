import { auditContentHash } from '@workbase/shared/kernel';
import { checkChainLink, contentHolds, GENESIS, sealAfter, type StoredEntry } from './audit-chain';

function written(i: number): StoredEntry {
  const content = {
    workspaceId: 'w',
    id: `id-${i}`,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    actor: { id: 't', type: 'api-token' },
    actorId: 't',
    requestId: `r${i}`,
    action: 'record.created',
    targetKind: 'record',
    targetId: `rec-${i}`,
    target: {},
    changes: null,
  };
  return { ...content, contentHash: auditContentHash(content), seq: null, prevHash: null, hash: null };
}

function sealed(length: number): StoredEntry[] {
  const entries = Array.from({ length }, (_, i) => written(i + 1));
  const { seals } = sealAfter(GENESIS, entries.map((entry, i) => ({ workspaceId: 'w', txId: String(100 + i), entryNo: String(i + 1), contentHash: entry.contentHash })));
  return entries.map((entry, i) => ({ ...entry, seq: seals[i].seq, prevHash: seals[i].prevHash, hash: seals[i].hash }));
}

function firstBreak(entries: StoredEntry[]) {
  const state = { seq: 0n, hash: GENESIS.hash };
  for (const entry of entries) {
    const broken = checkChainLink(state, entry);
    if (broken) return broken;
  }
  return null;
}

describe('audit chain', () => {
  it('a sealed chain holds', () => {
    expect(firstBreak(sealed(5))).toBeNull();
  });

  it('sealing continues from the head it is given', () => {
    const entries = sealed(4);
    const first = sealAfter(GENESIS, entries.slice(0, 2).map((e, i) => ({ workspaceId: 'w', txId: '1', entryNo: String(i), contentHash: e.contentHash })));
    const rest = sealAfter(first.head, entries.slice(2).map((e, i) => ({ workspaceId: 'w', txId: '2', entryNo: String(i), contentHash: e.contentHash })));
    expect([...first.seals, ...rest.seals].map((seal) => seal.hash)).toEqual(entries.map((entry) => entry.hash));
    expect(rest.head).toEqual({ seq: '4', hash: entries[3].hash });
  });

  it('names an entry whose content was altered', () => {
    const entries = sealed(4);
    entries[2] = { ...entries[2], changes: { name: { old: ['a'], new: ['b'] } } };
    expect(firstBreak(entries)).toEqual({ seq: '3', id: 'id-3', reason: 'content_altered' });
  });

  it('names an entry whose content and content hash were both rewritten: its link no longer holds', () => {
    const entries = sealed(4);
    const forged = { ...entries[1], action: 'record.deleted' };
    entries[1] = { ...forged, contentHash: auditContentHash(forged) };
    expect(firstBreak(entries)).toEqual({ seq: '2', id: 'id-2', reason: 'hash_altered' });
  });

  it('names the gap left by a removed entry, and a broken link', () => {
    const entries = sealed(4);
    expect(firstBreak([entries[0], entries[2], entries[3]])).toEqual({ seq: '2', id: null, reason: 'entry_missing' });
    entries[3] = { ...entries[3], prevHash: 'f'.repeat(64) };
    expect(firstBreak(entries)).toEqual({ seq: '4', id: 'id-4', reason: 'link_broken' });
  });

  it('checks an unsealed entry against its content hash', () => {
    const entry = written(1);
    expect(contentHolds(entry)).toBe(true);
    expect(contentHolds({ ...entry, targetId: 'other' })).toBe(false);
  });
});
