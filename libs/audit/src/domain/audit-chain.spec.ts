import { chainHashes, checkChainLink, GENESIS_HASH, type ChainedEntry } from './audit-chain';

function chain(length: number): ChainedEntry[] {
  const entries: ChainedEntry[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= length; i += 1) {
    const fields = {
      workspaceId: 'w',
      seq: String(i),
      id: `id-${i}`,
      occurredAt: `2026-01-01T00:00:0${i}.000000Z`,
      actor: '{"id": "t", "type": "api-token"}',
      actorId: 't',
      requestId: `r${i}`,
      action: 'record.created',
      targetKind: 'record',
      targetId: `rec-${i}`,
      target: '{}',
      changes: null,
    };
    const hashes = chainHashes(prev, fields);
    entries.push({ ...fields, prevHash: prev, ...hashes });
    prev = hashes.hash;
  }
  return entries;
}

function firstBreak(entries: ChainedEntry[]) {
  const state = { seq: 0n, hash: GENESIS_HASH };
  for (const entry of entries) {
    const broken = checkChainLink(state, entry);
    if (broken) return broken;
  }
  return null;
}

describe('audit chain', () => {
  it('holds for an intact chain', () => {
    expect(firstBreak(chain(5))).toBeNull();
  });

  it('names the entry whose content was altered', () => {
    const entries = chain(5);
    entries[2] = { ...entries[2], targetId: 'someone-else' };
    expect(firstBreak(entries)).toEqual({ seq: '3', id: 'id-3', reason: 'content_altered' });
  });

  it('names the entry after a removed one', () => {
    const entries = chain(5);
    entries.splice(1, 1);
    expect(firstBreak(entries)).toEqual({ seq: '2', id: null, reason: 'entry_missing' });
  });

  it('refuses an entry rehashed on its own: the next link no longer matches', () => {
    const entries = chain(4);
    const altered = { ...entries[1], action: 'record.deleted' };
    entries[1] = { ...altered, ...chainHashes(altered.prevHash, altered) };
    expect(firstBreak(entries)).toEqual({ seq: '3', id: 'id-3', reason: 'link_broken' });
  });

  it('refuses a stored hash that is not the hash of its link and content', () => {
    const entries = chain(3);
    entries[0] = { ...entries[0], hash: 'f'.repeat(64) };
    expect(firstBreak(entries)).toEqual({ seq: '1', id: 'id-1', reason: 'hash_altered' });
  });
});
