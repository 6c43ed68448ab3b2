import { WorkspaceLookup } from '@workbase/access';
import { WorkspaceMemberRepository } from '../../libs/access/src/infrastructure/workspace-member.repository';
import { WorkspaceRepository } from '../../libs/access/src/infrastructure/workspace.repository';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * Repositories hand out plain data, never TypeORM entity instances (the dependency check keeps
 * entity types inside infrastructure; this checks the values at run time).
 */
describe('ORM entities stay behind the repositories', () => {
  const t = useTestApp();
  const ws = useWorkspace(t);

  beforeAll(async () => {
    await t.createMember(ws.workspaceId, 'plain@example.com', 'member', 'a long enough password');
  });

  const isPlain = (value: unknown) => Object.getPrototypeOf(value) === Object.prototype;

  it('gives workspaces and members as plain objects, without the password hash', async () => {
    const members = t.app.get(WorkspaceMemberRepository);
    const listed = await members.listInWorkspace(ws.workspaceId);
    expect(listed).toHaveLength(2);
    const byEmail = await members.findByEmail(ws.workspaceId, 'PLAIN@example.com');
    const admin = await members.findFirstActiveAdmin(ws.workspaceId);
    const byId = await members.findById(ws.workspaceId, admin!.id);
    for (const member of [...listed, byEmail, admin, byId]) {
      expect(isPlain(member)).toBe(true);
      expect(Object.keys(member!)).not.toContain('passwordHash');
    }
    expect(byEmail).toMatchObject({ email: 'plain@example.com', accessLevel: 'member', state: 'active', deletedAt: null });
    for (const workspace of [await t.app.get(WorkspaceRepository).findById(ws.workspaceId), await t.app.get(WorkspaceLookup).require(ws.slug)]) {
      expect(isPlain(workspace)).toBe(true);
      expect(workspace).toMatchObject({ id: ws.workspaceId, slug: ws.slug });
    }
    expect(await members.findById(ws.workspaceId, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});
