import { Injectable } from '@nestjs/common';
import { CreateMemberUseCase } from '@workbase/access';
import { type Actor, newId, NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { parseFilter } from '../domain/filter';
import { readPatchRequest } from '../domain/patch';
import { assertVersionMatches } from '../domain/preconditions';
import { scimUniquenessConflict } from '../domain/scim-error';
import {
  applyUserPatch,
  assertNoSelfPromotion,
  documentOf,
  emailDomain,
  emailEntriesOf,
  externalIdOf,
  familyNameOf,
  givenNameOf,
  type InviteState,
  isActive,
  memberEmailOf,
  type MemberState,
  profileOf,
  readUserBody,
  type ScimUserRecord,
  type UserDocument,
} from '../domain/scim-user';
import { ScimUserRepository, type UserWrite } from '../infrastructure/scim-user.repository';
import { uniqueViolationAsConflict } from './unique-violation';

export interface Page {
  readonly offset: number;
  readonly limit: number;
}

/** Who is writing: the token's member (null for a workspace service token), for the self-promotion rule. */
export interface ScimCaller {
  readonly actor: Actor;
  readonly memberId: string | null;
}

/**
 * SCIM Users: workspace members and pending invites. A new user becomes an active member at once
 * when the workspace has verified the domain of its email, otherwise a pending invite. State
 * changes follow the table in libs/scim/README.md; a member who is not `active` has no access,
 * so the tokens they granted stop working with the same commit (service tokens never do).
 */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: ScimUserRepository,
    private readonly createMember: CreateMemberUseCase,
  ) {}

  list(workspaceId: string, filter: string | undefined, page: Page): Promise<{ total: number; users: ScimUserRecord[] }> {
    return this.users.list(workspaceId, filter === undefined ? null : parseFilter(filter), page.offset, page.limit);
  }

  async get(workspaceId: string, userId: string): Promise<ScimUserRecord> {
    return this.require(await this.users.findById(workspaceId, userId), userId);
  }

  async create(workspaceId: string, body: unknown, caller: ScimCaller): Promise<ScimUserRecord> {
    const doc = readUserBody(body);
    const email = memberEmailOf(doc);
    return this.write(doc.userName, () =>
      this.transactions.run(async () => {
        await this.assertUnique(workspaceId, doc.userName, email, null);
        const verified = (await this.users.verifiedDomains(workspaceId)).includes(emailDomain(email));
        let id: string;
        if (verified) {
          ({ memberId: id } = await this.createMember.execute({
            workspaceId,
            email,
            userName: doc.userName,
            firstName: givenNameOf(doc),
            lastName: familyNameOf(doc),
            accessLevel: doc.appRole,
            actor: caller.actor,
          }));
          await this.users.update(workspaceId, this.toWrite(id, 'member', doc, email, doc.active ? 'active' : 'suspended'));
        } else {
          id = newId();
          await this.users.insertInvite(workspaceId, this.toWrite(id, 'invite', doc, email, doc.active ? 'pending' : 'deprovisioned'));
        }
        return (await this.users.findById(workspaceId, id))!;
      }),
    );
  }

  /** PUT: replaces every attribute; omitted externalId, active and appRole keep their values; read-only ones are ignored. */
  async replace(workspaceId: string, userId: string, body: unknown, caller: ScimCaller, ifMatch?: string): Promise<ScimUserRecord> {
    return this.transactions.run(async () => {
      const current = this.require(await this.users.findById(workspaceId, userId, { lock: true }), userId);
      assertVersionMatches(ifMatch, current.version);
      const next = readUserBody(body, documentOf(current));
      return this.save(workspaceId, current, next, caller);
    });
  }

  /** PATCH: operations applied in order, all or nothing. `noContent` when a pending invite was deprovisioned. */
  async patch(workspaceId: string, userId: string, body: unknown, caller: ScimCaller, ifMatch?: string): Promise<{ user: ScimUserRecord; noContent: boolean }> {
    const operations = readPatchRequest(body);
    return this.transactions.run(async () => {
      const current = this.require(await this.users.findById(workspaceId, userId, { lock: true }), userId);
      assertVersionMatches(ifMatch, current.version);
      const after = await this.save(workspaceId, current, applyUserPatch(documentOf(current), operations), caller);
      return { user: after, noContent: current.kind === 'invite' && current.state === 'pending' && after.state === 'deprovisioned' };
    });
  }

  /**
   * DELETE (RFC 7644 §3.6): the user is gone for SCIM — 404 afterwards, never listed or filtered,
   * its userName free for a new user. A member's row stays, marked deleted and without access, so
   * that records and history that name them still resolve through /v2; an invite is cancelled.
   * Either way they leave every team.
   */
  async delete(workspaceId: string, userId: string, ifMatch?: string): Promise<void> {
    await this.transactions.run(async () => {
      const current = this.require(await this.users.findById(workspaceId, userId, { lock: true }), userId);
      assertVersionMatches(ifMatch, current.version);
      if (current.kind === 'invite') await this.users.cancelInvite(workspaceId, current.id);
      else await this.users.markMemberDeleted(workspaceId, current.id);
      await this.users.removeFromAllTeams(workspaceId, current.id);
    });
  }

  private toWrite(id: string, kind: ScimUserRecord['kind'], doc: UserDocument, email: string, state: MemberState | InviteState): UserWrite {
    return {
      id,
      kind,
      userName: doc.userName,
      email,
      givenName: givenNameOf(doc),
      familyName: familyNameOf(doc),
      externalId: externalIdOf(doc),
      appRole: doc.appRole,
      state,
      profile: profileOf(doc),
      // A user sent without emails is found by its email as the one primary work address GET shows.
      emails: emailEntriesOf(doc).length > 0 ? emailEntriesOf(doc) : [{ value: email, type: 'work', primary: true }],
    };
  }

  private async save(workspaceId: string, current: ScimUserRecord, next: UserDocument, caller: ScimCaller): Promise<ScimUserRecord> {
    const state = nextState(current, next.active);
    assertNoSelfPromotion(caller.memberId, current.id, current.appRole, next.appRole, isActive(current), next.active);
    const email = memberEmailOf(next);
    const write = this.toWrite(current.id, current.kind, next, email, state);
    const before = this.toWrite(current.id, current.kind, documentOf(current), current.email, current.state);
    if (JSON.stringify(write) === JSON.stringify(before)) return current;
    if (next.userName.toLowerCase() !== current.userName.toLowerCase() || email.toLowerCase() !== current.email.toLowerCase()) {
      await this.assertUnique(workspaceId, next.userName, email, current.id);
    }
    await this.write(next.userName, () => this.users.update(workspaceId, write));
    return (await this.users.findById(workspaceId, current.id))!;
  }

  private async assertUnique(workspaceId: string, userName: string, email: string, exceptUserId: string | null): Promise<void> {
    await this.users.lockUserName(workspaceId, userName);
    const holders = (await this.users.findByUserNameOrEmail(workspaceId, userName, email)).filter((user) => user.id !== exceptUserId);
    const sameName = holders.find((user) => user.userName.toLowerCase() === userName.toLowerCase());
    if (sameName) throw scimUniquenessConflict(`A user with userName "${userName}" already exists (id ${sameName.id}).`);
    if (holders.length > 0) throw scimUniquenessConflict(`emails: the address "${email}" is already the email of user ${holders[0].id}.`);
  }

  private write<T>(userName: string, work: () => Promise<T>): Promise<T> {
    return uniqueViolationAsConflict(work, `A user with userName "${userName}" (or its email) already exists.`);
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
