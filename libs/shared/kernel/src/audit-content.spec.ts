import { auditContentHash, auditLinkHash, canonicalJson } from './audit-content';

describe('audit content hash', () => {
  const entry = {
    workspaceId: 'w',
    id: 'e',
    occurredAt: new Date('2026-11-28T00:00:00.123Z'),
    actor: { type: 'api-token', id: 't', token_kind: 'service' },
    actorId: 't',
    requestId: 'r',
    action: 'record.updated',
    targetKind: 'record',
    targetId: 'x',
    target: { object_id: 'o', record_id: 'x' },
    changes: { name: { old: ['A'], new: ['B'] } },
  };

  it('is the same after a round trip through JSON that reorders keys (as jsonb does)', () => {
    const reordered = JSON.parse(JSON.stringify({ ...entry, actor: { token_kind: 'service', id: 't', type: 'api-token' } })) as Record<string, unknown>;
    expect(auditContentHash({ ...entry, actor: reordered.actor })).toBe(auditContentHash(entry));
  });

  it('hashes as it did when the first entries were written (stored hashes must still verify)', () => {
    // Computed by the implementation of 2026-11-28: sha256 of canonicalJson([the fields in order]).
    expect(auditContentHash(entry)).toBe('8569f41f99907fb0e5d8fe72ecd0688eaaac5af8ac0f25575e682ba375740214');
    expect(auditContentHash({ ...entry, changes: null, requestId: null, actorId: null })).toBe('d4e7e3a62041a3c2436af5b306f2a6bceff8f9bf28b95be6c95cdf6db1c9937f');
    const texts = { actor: canonicalJson(entry.actor), target: canonicalJson(entry.target), changes: canonicalJson(entry.changes) };
    expect(auditContentHash(entry, texts)).toBe(auditContentHash(entry));
  });

  it('changes with any field', () => {
    const base = auditContentHash(entry);
    expect(auditContentHash({ ...entry, changes: { name: { old: ['A'], new: ['C'] } } })).not.toBe(base);
    expect(auditContentHash({ ...entry, requestId: null })).not.toBe(base);
    expect(auditContentHash({ ...entry, occurredAt: new Date('2026-11-28T00:00:00.124Z') })).not.toBe(base);
  });

  it('writes a Date as JSON does, and drops undefined keys', () => {
    expect(canonicalJson({ b: new Date('2026-01-01T00:00:00.000Z'), a: undefined, c: [1, undefined] })).toBe('{"b":"2026-01-01T00:00:00.000Z","c":[1,null]}');
  });

  it('writes what the first implementation wrote, so the hashes of stored entries still verify', () => {
    // The implementation the entries written before 2026-11-29 were hashed with.
    const first = (value: unknown): string => {
      if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return first((value as { toJSON(): unknown }).toJSON());
      if (Array.isArray(value)) return `[${value.map((item) => first(item === undefined ? null : item)).join(',')}]`;
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).filter((key) => object[key] !== undefined).sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${first(object[key])}`).join(',')}}`;
    };
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const leaves = [null, undefined, true, false, 0, -1.5, 1e21, '', 'a"b\\c', 'ünï\u2028', new Date('2026-11-28T00:00:00.123Z')];
    const keys = ['b', 'a', '10', '9', 'A', 'é', '"q"', '', 'z_1'];
    const value = (depth: number): unknown => {
      const pick = next();
      if (depth === 0 || pick < 0.4) return leaves[Math.floor(next() * leaves.length)];
      if (pick < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth - 1));
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [keys[Math.floor(next() * keys.length)], value(depth - 1)]));
    };
    for (let i = 0; i < 500; i++) {
      const sample = value(4);
      expect(canonicalJson(sample)).toBe(first(sample));
    }
    expect(canonicalJson({ a: undefined })).toBe('{}');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([])).toBe('[]');
  });

  it('links depend on the position, the previous link and the content', () => {
    const link = auditLinkHash('1', '0'.repeat(64), 'a');
    expect(link).toMatch(/^[0-9a-f]{64}$/);
    expect(auditLinkHash('2', '0'.repeat(64), 'a')).not.toBe(link);
    expect(auditLinkHash('1', '1'.repeat(64), 'a')).not.toBe(link);
    expect(auditLinkHash('1', '0'.repeat(64), 'b')).not.toBe(link);
  });
});
