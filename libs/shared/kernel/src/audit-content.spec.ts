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

  it('changes with any field', () => {
    const base = auditContentHash(entry);
    expect(auditContentHash({ ...entry, changes: { name: { old: ['A'], new: ['C'] } } })).not.toBe(base);
    expect(auditContentHash({ ...entry, requestId: null })).not.toBe(base);
    expect(auditContentHash({ ...entry, occurredAt: new Date('2026-11-28T00:00:00.124Z') })).not.toBe(base);
  });

  it('writes a Date as JSON does, and drops undefined keys', () => {
    expect(canonicalJson({ b: new Date('2026-01-01T00:00:00.000Z'), a: undefined, c: [1, undefined] })).toBe('{"b":"2026-01-01T00:00:00.000Z","c":[1,null]}');
  });

  it('links depend on the position, the previous link and the content', () => {
    const link = auditLinkHash('1', '0'.repeat(64), 'a');
    expect(link).toMatch(/^[0-9a-f]{64}$/);
    expect(auditLinkHash('2', '0'.repeat(64), 'a')).not.toBe(link);
    expect(auditLinkHash('1', '1'.repeat(64), 'a')).not.toBe(link);
    expect(auditLinkHash('1', '0'.repeat(64), 'b')).not.toBe(link);
  });
});
