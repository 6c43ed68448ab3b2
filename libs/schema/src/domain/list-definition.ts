export interface MemberAccessRow {
  readonly workspace_member_id: string;
  readonly level: string;
}

/** A list with the members granted access to it (rows of `list_member_access`, in the order given): plain data, never an ORM entity. */
export interface ListWithAccess {
  readonly workspaceId: string;
  readonly id: string;
  readonly apiSlug: string;
  readonly name: string;
  readonly parentObjectId: string;
  readonly workspaceAccess: string | null;
  readonly createdBy: { readonly type: string; readonly id: string | null };
  readonly createdAt: Date;
  readonly workspaceMemberAccess: MemberAccessRow[];
}
