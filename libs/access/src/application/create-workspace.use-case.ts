import { Inject, Injectable, Optional } from '@nestjs/common';
import { ConflictError, newId } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { assertWorkspaceSlug } from '../domain/workspace-rules';
import { WorkspaceRepository } from '../infrastructure/workspace.repository';
import { CreateMemberUseCase } from './create-member.use-case';
import { WORKSPACE_INITIALIZERS, type WorkspaceInitializer } from './workspace-initializer';

export interface CreateWorkspaceCommand {
  readonly name: string;
  readonly slug: string;
  readonly adminEmail: string;
  readonly adminFirstName?: string | null;
  readonly adminLastName?: string | null;
  readonly adminPassword?: string | null;
  readonly logoUrl?: string | null;
}

/** A workspace is born with its first admin and whatever the other contexts seed into it. */
@Injectable()
export class CreateWorkspaceUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly workspaces: WorkspaceRepository,
    private readonly createMember: CreateMemberUseCase,
    @Optional() @Inject(WORKSPACE_INITIALIZERS) private readonly initializers: WorkspaceInitializer[] = [],
  ) {}

  async execute(command: CreateWorkspaceCommand): Promise<{ workspaceId: string; workspaceSlug: string; adminMemberId: string }> {
    assertWorkspaceSlug(command.slug);
    return this.transactions.run(async () => {
      if (await this.workspaces.slugTaken(command.slug)) {
        throw new ConflictError('slug_conflict', `A workspace with slug "${command.slug}" already exists.`);
      }
      const workspace = await this.workspaces.insert({ id: newId(), name: command.name, slug: command.slug, logoUrl: command.logoUrl ?? null });
      const { memberId } = await this.createMember.execute({
        workspaceId: workspace.id,
        email: command.adminEmail,
        firstName: command.adminFirstName,
        lastName: command.adminLastName,
        accessLevel: 'admin',
        password: command.adminPassword,
      });
      for (const initializer of this.initializers ?? []) await initializer.initializeWorkspace(workspace.id);
      return { workspaceId: workspace.id, workspaceSlug: workspace.slug, adminMemberId: memberId };
    });
  }
}
