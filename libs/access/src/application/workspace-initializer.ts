/**
 * Work other contexts do when a workspace is born (the record engine creates the standard
 * objects, activities the system activities), inside the creating transaction so that a
 * workspace never exists half-made. The composition root provides the list under this token.
 */
export interface WorkspaceInitializer {
  initializeWorkspace(workspaceId: string): Promise<void>;
}

export const WORKSPACE_INITIALIZERS = Symbol('WORKSPACE_INITIALIZERS');
