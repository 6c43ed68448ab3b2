import type { Container } from '@workbase/schema';
import { NotFoundError } from '@workbase/shared/kernel';
import { writeScope } from './write-scope';

const who = { workspaceId: 'ws-a', actor: { type: 'workspace-member' as const, id: 'member-1' }, memberId: 'member-1' };
const people: Container = { kind: 'object', id: 'object-1', workspaceId: 'ws-a', slug: 'people' };

describe('writeScope', () => {
  it('carries the actor, the member and the container, whose workspace is the write\'s', () => {
    expect(writeScope(who, people)).toEqual({ actor: who.actor, memberId: 'member-1', container: people });
  });

  it("refuses another workspace's container as not found, naming it", () => {
    const theirs: Container = { ...people, workspaceId: 'ws-b', kind: 'list', slug: 'deals' };
    expect(() => writeScope(who, theirs)).toThrow(NotFoundError);
    expect(() => writeScope(who, theirs)).toThrow('List not found: deals.');
  });

  it("moves a write to another container of the same workspace only (a record's entries)", () => {
    const deals: Container = { kind: 'list', id: 'list-1', workspaceId: 'ws-a', slug: 'deals' };
    expect(writeScope(writeScope(who, people), deals)).toEqual({ actor: who.actor, memberId: 'member-1', container: deals });
    expect(() => writeScope(writeScope(who, people), { ...deals, workspaceId: 'ws-b' })).toThrow(NotFoundError);
  });
});
