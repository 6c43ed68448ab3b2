import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@workbase/shared/kernel';
import { WorkspaceRepository } from '../infrastructure/workspace.repository';
import type { Workspace } from '../domain/workspace';

@Injectable()
export class WorkspaceLookup {
  constructor(private readonly workspaces: WorkspaceRepository) {}

  async require(slugOrId: string): Promise<Workspace> {
    const workspace = await this.workspaces.findBySlugOrId(slugOrId);
    if (!workspace) throw new NotFoundError(`Workspace "${slugOrId}" not found.`);
    return workspace;
  }

  /** No workspace exists yet (a fresh installation: the API seeds a demo workspace). */
  isEmpty(): Promise<boolean> {
    return this.workspaces.isEmpty();
  }
}
