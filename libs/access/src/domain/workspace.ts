import type { AccessLevel } from './workspace-rules';

/** A workspace as the application and the HTTP surface see it: plain data, never an ORM entity. */
export interface Workspace {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly logoUrl: string | null;
  readonly verifiedEmailDomains: readonly string[];
  readonly createdAt: Date;
}

/** A workspace member as the application and the HTTP surface see it (the password hash never leaves the repository). */
export interface WorkspaceMember {
  readonly workspaceId: string;
  readonly id: string;
  readonly email: string;
  /** The SCIM userName; the email for members made outside SCIM. */
  readonly userName: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly avatarUrl: string | null;
  readonly accessLevel: AccessLevel;
  readonly state: 'active' | 'suspended' | 'deprovisioned';
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Set by a SCIM DELETE: gone for SCIM, kept so that references to the member still resolve. */
  readonly deletedAt: Date | null;
}

/** An active member with the workspace they belong to, as the consent pages list them. */
export interface ActiveMembership {
  readonly workspaceId: string;
  readonly workspaceName: string;
  readonly workspaceSlug: string;
  readonly memberId: string;
  readonly email: string;
}
