import { Injectable } from '@nestjs/common';
import type { ActiveMembership } from '../domain/workspace';
import { WorkspaceMemberRepository } from '../infrastructure/workspace-member.repository';
import { WorkspaceRepository } from '../infrastructure/workspace.repository';

/** A member as other contexts name it (assignees, authors, `current-user` defaults, search requesters). */
export interface MemberRef {
  readonly workspaceId: string;
  readonly id: string;
  readonly email: string;
}

/** A member's sign-in credentials: a member is per workspace, and one person signs in once for all the workspaces whose password they know. */
export interface MemberCredentials {
  readonly workspaceId: string;
  readonly memberId: string;
  readonly passwordHash: string | null;
}

/**
 * The access context's front door to its members and workspaces for other contexts: lookups by id
 * or email (SCIM-deleted members are not found by email), workspace slugs, which members exist or
 * are active, and the credential reads and rehashes of the OAuth sign-in. `workspace_members` and `workspaces` stay behind it.
 */
@Injectable()
export class MemberDirectory {
  constructor(
    private readonly members: WorkspaceMemberRepository,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  async findById(workspaceId: string, memberId: string): Promise<MemberRef | null> {
    return toRef(await this.members.findById(workspaceId, memberId));
  }

  async findByEmail(workspaceId: string, email: string): Promise<MemberRef | null> {
    return toRef(await this.members.findByEmail(workspaceId, email));
  }

  /** Which of `memberIds` are members of the workspace that were not deleted through SCIM. */
  existingMemberIds(workspaceId: string, memberIds: readonly string[]): Promise<Set<string>> {
    return this.members.existingIds(workspaceId, memberIds);
  }

  /** Whether the member is active (not deactivated or deleted through SCIM): only an active member's authorizations may still issue tokens. */
  async isActive(workspaceId: string, memberId: string): Promise<boolean> {
    return (await this.members.activeMemberships([{ workspaceId, memberId }])).length === 1;
  }

  /** Of these memberships, the active ones with their email and workspace, by workspace name then slug. */
  activeMemberships(pairs: ReadonlyArray<{ workspaceId: string; memberId: string }>): Promise<ActiveMembership[]> {
    return this.members.activeMemberships(pairs);
  }

  /** The workspace's slug (for `web_url`s), or null for an unknown workspace. */
  async workspaceSlug(workspaceId: string): Promise<string | null> {
    return (await this.workspaces.findById(workspaceId))?.slug ?? null;
  }

  /** The active members with this email, in every workspace (at most 50), with their password hashes. */
  activeCredentialsByEmail(email: string): Promise<MemberCredentials[]> {
    return this.members.activeCredentialsByEmail(email);
  }

  /** Replaces a password hash with a stronger one, unless it changed meanwhile; false when it did. */
  upgradePasswordHash(workspaceId: string, memberId: string, previousHash: string, passwordHash: string): Promise<boolean> {
    return this.members.upgradePasswordHash(workspaceId, memberId, previousHash, passwordHash);
  }
}

function toRef(member: { workspaceId: string; id: string; email: string } | null): MemberRef | null {
  return member && { workspaceId: member.workspaceId, id: member.id, email: member.email };
}
