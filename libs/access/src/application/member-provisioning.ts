import { Injectable } from '@nestjs/common';
import type { AccessLevel } from '../domain/workspace-rules';
import { WorkspaceMemberRepository } from '../infrastructure/workspace-member.repository';
import { WorkspaceRepository } from '../infrastructure/workspace.repository';

/** The fields of a member that an identity provider owns (SCIM), as the access context stores them. */
export interface ProvisionedMemberFields {
  readonly userName: string;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly externalId: string | null;
  readonly accessLevel: AccessLevel;
  readonly state: 'active' | 'suspended' | 'deprovisioned';
  /** The SCIM attributes kept as sent (returned on GET). */
  readonly scimProfile: Readonly<Record<string, unknown>>;
}

/**
 * What provisioning (SCIM) changes of members, through the context that owns `workspace_members`
 * and `workspaces`. Callers run these inside their own transaction.
 */
@Injectable()
export class MemberProvisioning {
  constructor(
    private readonly members: WorkspaceMemberRepository,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  /** Locks the member's row until the transaction ends (concurrent provisioning of one member serialises). */
  lock(workspaceId: string, memberId: string): Promise<void> {
    return this.members.lockForUpdate(workspaceId, memberId);
  }

  update(workspaceId: string, memberId: string, fields: ProvisionedMemberFields): Promise<void> {
    return this.members.updateProvisioned(workspaceId, memberId, fields);
  }

  /**
   * A member deleted by the identity provider: no access (an active member is suspended), its
   * userName and email free again; the row stays so that actor references still resolve.
   */
  markDeleted(workspaceId: string, memberId: string): Promise<void> {
    return this.members.markDeleted(workspaceId, memberId);
  }

  /** Users of this domain become members when provisioned (the CLI's `--verified-domain`). */
  addVerifiedEmailDomain(workspaceId: string, domain: string): Promise<void> {
    return this.workspaces.addVerifiedDomain(workspaceId, domain);
  }

  /** The workspace's verified email domains, lower-cased: users of these domains become members, others invites. */
  async verifiedEmailDomains(workspaceId: string): Promise<string[]> {
    return (await this.workspaces.verifiedEmailDomains(workspaceId)).map((domain) => domain.toLowerCase());
  }
}
