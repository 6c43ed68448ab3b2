import { Injectable } from '@nestjs/common';
import { CreateMemberUseCase } from '@workbase/access';
import { type Actor, newId, NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { parseFilter } from '../domain/filter';
import { readPatchRequest } from '../domain/patch';
import { scimUniquenessConflict } from '../domain/scim-error';
import {
  applyUserPatch,
  emailDomain,
  fieldsOf,
  type InviteState,
  type MemberState,
  readUserBody,
  type ScimUserRecord,
  type UserFields,
} from '../domain/scim-user';
import { ScimUserStore } from '../infrastructure/scim-user.store';
import { uniqueViolationAsConflict } from './unique-violation';

export interface Page {
  readonly offset: number;
  readonly limit: number;
}

/**
 * SCIM Users: workspace members and pending invites. A new user becomes an active member at once
 * when the workspace has verified its email domain, otherwise a pending invite. State changes
 * follow the spec's table (see libs/scim/README.md); a member who is not `active` has no access,
 * so their tokens stop working with the same commit.
 */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: ScimUserStore,
    private readonly createMember: CreateMemberUseCase,
  ) {}

  list(workspaceId: string, filter: string | undefined, page: Page): Promise<{ total: number; users: ScimUserRecord[] }> {
    return this.users.list(workspaceId, filter === undefined ? null : parseFilter(filter), page.offset, page.limit);
  }

  async get(workspaceId: string, userId: string): Promise<ScimUserRecord> {
    return this.require(await this.users.findById(workspaceId, userId), userId);
  }

  async create(workspaceId: string, body: unknown, actor: Actor): Promise<ScimUserRecord> {
    const fields = readUserBody(body);
    return this.write(fields.userName, () =>
      this.transactions.run(async () => {
        await this.assertUserNameFree(workspaceId, fields.userName, null);
        const verified = (await this.users.verifiedDomains(workspaceId)).includes(emailDomain(fields.userName));
        let id: string;
        if (verified) {
          ({ memberId: id } = await this.createMember.execute({
            workspaceId,
            email: fields.userName,
            firstName: fields.givenName,
            lastName: fields.familyName,
            accessLevel: fields.appRole,
            actor,
          }));
          await this.users.update(workspaceId, { id, kind: 'member', ...fields, state: fields.active ? 'active' : 'suspended' });
        } else {
          id = newId();
          await this.users.insertInvite(workspaceId, { id, ...fields, state: fields.active ? 'pending' : 'deprovisioned' });
        }
        return (await this.users.findById(workspaceId, id))!;
      }),
    );
  }

  /** PUT: replaces userName and name; omitted externalId, active and appRole keep their values. */
  async replace(workspaceId: string, userId: string, body: unknown): Promise<ScimUserRecord> {
    return this.transactions.run(async () => {
      const current = this.require(await this.users.findById(workspaceId, userId, { lock: true }), userId);
      const next = readUserBody(body, fieldsOf(current));
      return (await this.save(workspaceId, current, next)).after;
    });
  }

  /** PATCH: operations applied in order, all or nothing. `noContent` when a pending invite was deprovisioned. */
  async patch(workspaceId: string, userId: string, body: unknown): Promise<{ user: ScimUserRecord; noContent: boolean }> {
    const operations = readPatchRequest(body);
    return this.transactions.run(async () => {
      const current = this.require(await this.users.findById(workspaceId, userId, { lock: true }), userId);
      const { after } = await this.save(workspaceId, current, applyUserPatch(fieldsOf(current), operations));
      return { user: after, noContent: current.kind === 'invite' && current.state === 'pending' && after.state === 'deprovisioned' };
    });
  }

  /** DELETE: an active member is suspended, an invite cancelled; either way they leave every team. */
  async delete(workspaceId: string, userId: string): Promise<void> {
    await this.transactions.run(async () => {
      const current = this.require(await this.users.findById(workspaceId, userId, { lock: true }), userId);
      if (current.kind === 'invite') {
        await this.users.cancelInvite(workspaceId, current.id);
      } else if (current.state === 'active') {
        await this.users.update(workspaceId, { ...current, state: 'suspended' });
      }
      await this.users.removeFromAllTeams(workspaceId, current.id);
    });
  }

  private async save(workspaceId: string, current: ScimUserRecord, next: UserFields): Promise<{ after: ScimUserRecord }> {
    const state = nextState(current, next.active);
    const changed =
      state !== current.state ||
      next.userName !== current.userName ||
      next.givenName !== current.givenName ||
      next.familyName !== current.familyName ||
      next.externalId !== current.externalId ||
      next.appRole !== current.appRole;
    if (!changed) return { after: current };
    if (next.userName.toLowerCase() !== current.userName.toLowerCase()) await this.assertUserNameFree(workspaceId, next.userName, current.id);
    await this.write(next.userName, () => this.users.update(workspaceId, { id: current.id, kind: current.kind, ...next, state }));
    return { after: (await this.users.findById(workspaceId, current.id))! };
  }

  private async assertUserNameFree(workspaceId: string, userName: string, exceptUserId: string | null): Promise<void> {
    await this.users.lockUserName(workspaceId, userName);
    const holders = (await this.users.findByUserName(workspaceId, userName)).filter((user) => user.id !== exceptUserId);
    if (holders.length > 0) throw scimUniquenessConflict(`A user with userName "${userName}" already exists (id ${holders[0].id}).`);
  }

  private write<T>(userName: string, work: () => Promise<T>): Promise<T> {
    return uniqueViolationAsConflict(work, `A user with userName "${userName}" already exists.`);
  }

  private require(user: ScimUserRecord | null, userId: string): ScimUserRecord {
    if (!user) throw new NotFoundError(`User "${userId}" not found.`);
    return user;
  }
}

/**
 * `active` → state. Members: deactivating an active member deprovisions them; a suspended or
 * deprovisioned member stays as they are until reactivated. Invites: pending ⇄ deprovisioned.
 */
function nextState(current: ScimUserRecord, active: boolean): MemberState | InviteState {
  if (current.kind === 'invite') return active ? 'pending' : 'deprovisioned';
  if (active) return 'active';
  return current.state === 'active' ? 'deprovisioned' : current.state;
}
