import { Injectable } from '@nestjs/common';
import { newId, NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { parseFilter } from '../domain/filter';
import { readPatchRequest } from '../domain/patch';
import { assertVersionMatches } from '../domain/preconditions';
import { scimBadRequest, scimUniquenessConflict } from '../domain/scim-error';
import { applyGroupPatch, type GroupMemberRef, readGroupBody } from '../domain/scim-group';
import { ScimGroupRepository, type TeamRecord } from '../infrastructure/scim-group.repository';
import type { Page } from './scim-users.service';
import { uniqueViolationAsConflict } from './unique-violation';

export interface ScimGroupView {
  readonly team: TeamRecord;
  /** Null when the caller excluded members (`excludedAttributes=members`): they are not even read. */
  readonly members: readonly GroupMemberRef[] | null;
}

/** SCIM Groups: workspace teams. Display names are unique per workspace, case-insensitively. */
@Injectable()
export class ScimGroupsService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly groups: ScimGroupRepository,
  ) {}

  async list(workspaceId: string, filter: string | undefined, page: Page, withMembers: boolean): Promise<{ total: number; groups: ScimGroupView[] }> {
    const { total, teams } = await this.groups.list(workspaceId, filter === undefined ? null : parseFilter(filter), page.offset, page.limit);
    const members = withMembers ? await this.groups.membersOf(workspaceId, teams.map((team) => team.id)) : null;
    return { total, groups: teams.map((team) => ({ team, members: members?.get(team.id) ?? null })) };
  }

  async get(workspaceId: string, teamId: string, withMembers = true): Promise<ScimGroupView> {
    const team = this.require(await this.groups.findById(workspaceId, teamId), teamId);
    return { team, members: withMembers ? ((await this.groups.membersOf(workspaceId, [team.id])).get(team.id) ?? []) : null };
  }

  async create(workspaceId: string, body: unknown): Promise<ScimGroupView> {
    const input = readGroupBody(body);
    return this.write(input.displayName, () =>
      this.transactions.run(async () => {
        await this.assertNameFree(workspaceId, input.displayName, null);
        const id = newId();
        await this.groups.insert(workspaceId, { id, displayName: input.displayName, externalId: input.externalId });
        await this.groups.setMembers(workspaceId, id, await this.resolveMembers(workspaceId, input.memberIds));
        return this.get(workspaceId, id);
      }),
    );
  }

  /** PUT: replaces the name, externalId and the whole member list. */
  async replace(workspaceId: string, teamId: string, body: unknown, ifMatch?: string): Promise<ScimGroupView> {
    const input = readGroupBody(body);
    return this.write(input.displayName, () =>
      this.transactions.run(async () => {
        const team = this.require(await this.groups.findById(workspaceId, teamId, { lock: true }), teamId);
        assertVersionMatches(ifMatch, team.version);
        if (input.displayName.toLowerCase() !== team.displayName.toLowerCase()) await this.assertNameFree(workspaceId, input.displayName, team.id);
        await this.groups.update(workspaceId, { id: team.id, displayName: input.displayName, externalId: input.externalId });
        await this.groups.setMembers(workspaceId, team.id, await this.resolveMembers(workspaceId, input.memberIds));
        return this.get(workspaceId, team.id);
      }),
    );
  }

  /** PATCH: operations applied in order to the team, then saved in one transaction. */
  async patch(workspaceId: string, teamId: string, body: unknown, ifMatch?: string): Promise<ScimGroupView> {
    const operations = readPatchRequest(body);
    return this.transactions.run(async () => {
      const team = this.require(await this.groups.findById(workspaceId, teamId, { lock: true }), teamId);
      assertVersionMatches(ifMatch, team.version);
      const members = (await this.groups.membersOf(workspaceId, [team.id])).get(team.id) ?? [];
      const next = applyGroupPatch({ displayName: team.displayName, externalId: team.externalId, members }, operations);
      return this.write(next.displayName, async () => {
        if (next.displayName.toLowerCase() !== team.displayName.toLowerCase()) await this.assertNameFree(workspaceId, next.displayName, team.id);
        const memberIds = next.members.map((m) => m.value);
        const membersChanged = memberIds.join(',') !== members.map((m) => m.value).join(',');
        if (next.displayName !== team.displayName || next.externalId !== team.externalId || membersChanged) {
          await this.groups.update(workspaceId, { id: team.id, displayName: next.displayName, externalId: next.externalId });
        }
        if (membersChanged) await this.groups.setMembers(workspaceId, team.id, await this.resolveMembers(workspaceId, memberIds));
        return this.get(workspaceId, team.id);
      });
    });
  }

  /** DELETE: the team goes; its members stay in the workspace. */
  async delete(workspaceId: string, teamId: string, ifMatch?: string): Promise<void> {
    await this.transactions.run(async () => {
      assertVersionMatches(ifMatch, this.require(await this.groups.findById(workspaceId, teamId, { lock: true }), teamId).version);
      await this.groups.delete(workspaceId, teamId);
    });
  }

  private async resolveMembers(workspaceId: string, ids: readonly string[]): Promise<Array<{ id: string; kind: 'member' | 'invite' }>> {
    const kinds = await this.groups.userKinds(workspaceId, ids);
    const unknown = ids.filter((id) => !kinds.has(id));
    if (unknown.length > 0) {
      throw scimBadRequest('invalidValue', `members: no user with id ${unknown.map((id) => `"${id}"`).join(', ')} in this workspace.`);
    }
    return ids.map((id) => ({ id, kind: kinds.get(id)! }));
  }

  private async assertNameFree(workspaceId: string, displayName: string, exceptTeamId: string | null): Promise<void> {
    await this.groups.lockDisplayName(workspaceId, displayName);
    const other = await this.groups.findOtherByDisplayName(workspaceId, displayName, exceptTeamId);
    if (other) throw scimUniquenessConflict(`A group with displayName "${displayName}" already exists (id ${other.id}).`);
  }

  private write<T>(displayName: string, work: () => Promise<T>): Promise<T> {
    return uniqueViolationAsConflict(work, `A group with displayName "${displayName}" already exists.`);
  }

  private require(team: TeamRecord | null, teamId: string): TeamRecord {
    if (!team) throw new NotFoundError(`Group "${teamId}" not found.`);
    return team;
  }
}
