import { Injectable } from '@nestjs/common';
import { MemberDirectory } from '@workbase/access';
import { type Actor, ConflictError, newId, NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner, conflictOnUniqueViolation } from '@workbase/shared/persistence';
import { ListRepository } from '../infrastructure/list.repository';
import { ObjectRepository } from '../infrastructure/object.repository';
import type { ListWithAccess } from '../domain/list-definition';
import { assertSlug } from '../domain/attribute';
import { AttributeDirectory } from './attribute.directory';
import { ENTRY_SYSTEM_ATTRIBUTES, systemAttributeRows } from './standard-objects';

export type WorkspaceAccess = 'full-access' | 'read-and-write' | 'read-only';
export interface MemberAccess {
  workspace_member_id: string;
  level: WorkspaceAccess;
}

export interface ListInput {
  readonly name?: string;
  readonly apiSlug?: string;
  readonly parentObject?: string;
  readonly workspaceAccess?: WorkspaceAccess | null;
  readonly workspaceMemberAccess?: MemberAccess[];
}

@Injectable()
export class ListCatalog {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly lists: ListRepository,
    private readonly objects: ObjectRepository,
    private readonly outbox: EventOutbox,
    private readonly members: MemberDirectory,
    private readonly attributes: AttributeDirectory,
  ) {}

  list(workspaceId: string): Promise<ListWithAccess[]> {
    return this.lists.listInWorkspace(workspaceId);
  }

  async get(workspaceId: string, slugOrId: string): Promise<ListWithAccess> {
    const list = await this.lists.findBySlugOrId(workspaceId, slugOrId);
    if (!list) throw new NotFoundError(`List with slug/ID "${slugOrId}" not found.`);
    return list;
  }

  async create(workspaceId: string, input: Required<Pick<ListInput, 'name' | 'apiSlug' | 'parentObject'>> & ListInput, actor: Actor): Promise<ListWithAccess> {
    assertSlug(input.apiSlug, 'data.api_slug');
    return this.transactions.run(async () => {
      const parent = await this.objects.findBySlugOrId(workspaceId, input.parentObject);
      if (!parent) throw new ValidationError(`data.parent_object "${input.parentObject}" is not an object of this workspace.`);
      if (await this.lists.slugTaken(workspaceId, input.apiSlug)) throw listSlugConflict(input.apiSlug);
      const id = newId();
      await conflictOnUniqueViolation('lists_slug_unique', () => listSlugConflict(input.apiSlug), () =>
        this.lists.insert({
        workspaceId,
        id,
        apiSlug: input.apiSlug,
        name: input.name,
        parentObjectId: parent.id,
        workspaceAccess: input.workspaceAccess ?? 'full-access',
        createdBy: actor,
        }),
      );
      await this.attributes.seed(systemAttributeRows(workspaceId, id, 'list', ENTRY_SYSTEM_ATTRIBUTES));
      await this.grantMembers(workspaceId, id, input.workspaceMemberAccess ?? []);
      await this.outbox.record({ eventType: 'list.created', workspaceId, id: { workspace_id: workspaceId, list_id: id }, actor });
      return (await this.lists.findBySlugOrId(workspaceId, id))!;
    });
  }

  async update(workspaceId: string, slugOrId: string, input: ListInput, actor: Actor): Promise<ListWithAccess> {
    return this.transactions.run(async () => {
      const list = await this.get(workspaceId, slugOrId);
      if (input.parentObject !== undefined) throw new ValidationError('data.parent_object cannot be changed.');
      if (input.apiSlug !== undefined && input.apiSlug !== list.apiSlug) {
        assertSlug(input.apiSlug, 'data.api_slug');
        if (await this.lists.slugTaken(workspaceId, input.apiSlug, list.id)) throw listSlugConflict(input.apiSlug);
      }
      await conflictOnUniqueViolation('lists_slug_unique', () => listSlugConflict(input.apiSlug ?? list.apiSlug), () =>
        this.lists.update(workspaceId, list.id, {
          apiSlug: input.apiSlug,
          name: input.name,
          workspaceAccess: input.workspaceAccess,
        }),
      );
      if (input.workspaceMemberAccess !== undefined) await this.grantMembers(workspaceId, list.id, input.workspaceMemberAccess);
      await this.outbox.record({ eventType: 'list.updated', workspaceId, id: { workspace_id: workspaceId, list_id: list.id }, actor });
      return (await this.lists.findBySlugOrId(workspaceId, list.id))!;
    });
  }

  /** Each grant must name a member of this workspace, once; the foreign keys hold it too. */
  private async grantMembers(workspaceId: string, listId: string, grants: readonly MemberAccess[]): Promise<void> {
    const field = (i: number) => `data.workspace_member_access[${i}].workspace_member_id`;
    const seen = new Set<string>();
    grants.forEach((grant, i) => {
      if (seen.has(grant.workspace_member_id)) throw new ValidationError(`${field(i)} "${grant.workspace_member_id}" is granted access twice.`);
      seen.add(grant.workspace_member_id);
    });
    const members = await this.members.existingMemberIds(workspaceId, [...seen]);
    grants.forEach((grant, i) => {
      if (!members.has(grant.workspace_member_id)) throw new ValidationError(`${field(i)} "${grant.workspace_member_id}" is not a member of this workspace.`);
    });
    await this.lists.replaceMemberAccess(workspaceId, listId, grants);
  }
}

function listSlugConflict(slug: string): ConflictError {
  return new ConflictError('slug_conflict', `A list with slug "${slug}" already exists.`);
}
