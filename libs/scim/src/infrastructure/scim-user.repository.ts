import { Injectable } from '@nestjs/common';
import { MemberProvisioning } from '@workbase/access';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Filter } from '../domain/filter';
import type { JsonObject } from '../domain/json-body';
import type { AppRole, EmailEntry, InviteState, MemberState, ScimUserRecord, UserKind } from '../domain/scim-user';
import { compileFilter, type SqlAttribute, type SqlFilterTarget, type SqlMultiValued } from './filter-sql';

interface UserRow {
  id: string;
  kind: UserKind;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  external_id: string | null;
  access_level: AppRole;
  state: MemberState | InviteState;
  scim_profile: JsonObject;
  version: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `u.id, u.kind, u.user_name, u.email, u.first_name, u.last_name, u.external_id, u.access_level, u.state, u.scim_profile,
  (extract(epoch FROM u.updated_at) * 1000000)::bigint::text AS version, u.created_at, u.updated_at`;

const str = (sql: string, caseExact = false) => ({ type: 'string' as const, caseExact, sql });
const profileText = (key: string) => str(`(u.scim_profile ->> '${key}')`);

/** What a Users filter may name, over the `scim_users` view aliased `u`. */
export const USER_FILTER_TARGET: SqlFilterTarget = {
  resource: 'User',
  schemaUrns: ['urn:ietf:params:scim:schemas:core:2.0:user'],
  attributes: new Map<string, SqlAttribute>([
    ['id', str('u.id::text', true)],
    ['username', str('u.user_name')],
    ['externalid', str('u.external_id', true)],
    ['name.givenname', str('u.first_name')],
    ['name.familyname', str('u.last_name')],
    ['name.formatted', str(`(u.scim_profile -> 'name' ->> 'formatted')`)],
    ['displayname', profileText('displayName')],
    ['nickname', profileText('nickName')],
    ['title', profileText('title')],
    ['active', { type: 'boolean', caseExact: false, sql: 'u.active' }],
    ['approle', str('u.access_level')],
    ['meta.created', { type: 'dateTime', caseExact: false, sql: 'u.created_at' }],
    ['meta.lastmodified', { type: 'dateTime', caseExact: false, sql: 'u.updated_at' }],
    ['meta.resourcetype', str(`'User'`)],
  ]),
  multiValued: new Map<string, SqlMultiValued>([
    [
      'emails',
      {
        // One row per address in scim_user_emails, indexed on (workspace_id, lower(value)). An
        // uncorrelated sub-select (the workspace is always $1 here) runs once, as an index probe,
        // and the matching users are then fetched by primary key; a correlated EXISTS made the
        // planner hash-join a scan of every member instead.
        subAttributes: new Map<string, SqlAttribute>([
          ['value', str('e.value')],
          ['type', str('e.type')],
          ['primary', { type: 'boolean', caseExact: false, sql: 'e.is_primary' }],
        ]),
        anyElement: (condition: string) => `u.id = ANY (ARRAY(SELECT e.user_id FROM scim_user_emails e WHERE e.workspace_id = $1 AND ${condition}))`,
      },
    ],
  ]),
};

function toRecord(row: UserRow): ScimUserRecord {
  return {
    id: row.id,
    kind: row.kind,
    userName: row.user_name,
    email: row.email,
    givenName: row.first_name,
    familyName: row.last_name,
    externalId: row.external_id,
    appRole: row.access_level,
    state: row.state,
    profile: row.scim_profile ?? {},
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What SCIM writes of a member or invite: the user as stored but what the database stamps, with its email rows. */
export interface UserWrite extends Omit<ScimUserRecord, 'version' | 'createdAt' | 'updatedAt'> {
  readonly emails: readonly EmailEntry[];
}

/**
 * SCIM's reads of members and invites (the `scim_users` view), its writes of invites, emails and
 * team memberships; members themselves are changed through the access context (MemberProvisioning),
 * which owns `workspace_members`. Every method takes the workspace first.
 */
@Injectable()
export class ScimUserRepository {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly members: MemberProvisioning,
  ) {}


  /** A page of users matching the filter, in creation order, and the number of all matches. */
  async list(workspaceId: string, filter: Filter | null, offset: number, limit: number): Promise<{ total: number; users: ScimUserRecord[] }> {
    const params: unknown[] = [workspaceId];
    const where = filter ? ` AND ${compileFilter(filter, USER_FILTER_TARGET, params)}` : '';
    const [{ total }] = await this.transactions.query<{ total: number }>(`SELECT count(*)::int AS total FROM scim_users u WHERE u.workspace_id = $1${where}`, params);
    if (limit === 0 || total <= offset) return { total, users: [] };
    const rows = await this.transactions.query<UserRow>(
      `SELECT ${COLUMNS} FROM scim_users u WHERE u.workspace_id = $1${where}
        ORDER BY u.created_at, u.id OFFSET ${offset} LIMIT ${limit}`,
      params,
    );
    return { total, users: rows.map(toRecord) };
  }

  /** Ids match exactly (RFC 7643 §3.1: `id` is case-exact): an upper-cased id is another, unknown id. */
  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<ScimUserRecord | null> {
    if (!isUuid(id) || id !== id.toLowerCase()) return null;
    const rows = await this.transactions.query<UserRow>(`SELECT ${COLUMNS} FROM scim_users u WHERE u.workspace_id = $1 AND u.id = $2`, [workspaceId, id]);
    const user = rows[0] ? toRecord(rows[0]) : null;
    if (user && options.lock) {
      if (user.kind === 'member') await this.members.lock(workspaceId, id);
      else await this.transactions.query(`SELECT 1 FROM workspace_invites WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [workspaceId, id]);
      return this.findById(workspaceId, id);
    }
    return user;
  }

  /** The users (members in any state, live invites) with this userName or this member email, case-insensitively. */
  async findByUserNameOrEmail(workspaceId: string, userName: string, email: string): Promise<ScimUserRecord[]> {
    const rows = await this.transactions.query<UserRow>(
      `SELECT ${COLUMNS} FROM scim_users u WHERE u.workspace_id = $1 AND (lower(u.user_name) = lower($2) OR lower(u.email) = lower($3))`,
      [workspaceId, userName, email],
    );
    return rows.map(toRecord);
  }

  /** Serialises writers of one userName in one workspace until the transaction ends. */
  async lockUserName(workspaceId: string, userName: string): Promise<void> {
    await this.transactions.query(`SELECT pg_advisory_xact_lock(hashtext('scim-user:' || $1 || ':' || lower($2)))`, [workspaceId, userName]);
  }

  verifiedDomains(workspaceId: string): Promise<string[]> {
    return this.members.verifiedEmailDomains(workspaceId);
  }

  async insertInvite(workspaceId: string, invite: UserWrite): Promise<void> {
    await this.transactions.query(
      `INSERT INTO workspace_invites (workspace_id, id, user_name, email, first_name, last_name, access_level, external_id, state, scim_profile)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [workspaceId, invite.id, invite.userName, invite.email, invite.givenName, invite.familyName, invite.appRole, invite.externalId, invite.state, invite.profile],
    );
    await this.replaceEmails(workspaceId, invite.id, invite.emails);
  }

  /** Writes the SCIM-owned fields of a member or invite, its state and its email rows. */
  async update(workspaceId: string, user: UserWrite): Promise<void> {
    if (user.kind === 'member') {
      await this.members.update(workspaceId, user.id, {
        userName: user.userName,
        email: user.email,
        firstName: user.givenName,
        lastName: user.familyName,
        externalId: user.externalId,
        accessLevel: user.appRole,
        state: user.state as MemberState,
        scimProfile: user.profile,
      });
      await this.replaceEmails(workspaceId, user.id, user.emails);
      return;
    }
    await this.transactions.query(
      `UPDATE workspace_invites SET user_name = $3, email = $4, first_name = $5, last_name = $6, external_id = $7, access_level = $8, state = $9,
              scim_profile = $10, updated_at = clock_timestamp()
        WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, user.id, user.userName, user.email, user.givenName, user.familyName, user.externalId, user.appRole, user.state, user.profile],
    );
    await this.replaceEmails(workspaceId, user.id, user.emails);
  }

  private async replaceEmails(workspaceId: string, userId: string, emails: readonly EmailEntry[]): Promise<void> {
    await this.transactions.query(`DELETE FROM scim_user_emails WHERE workspace_id = $1 AND user_id = $2`, [workspaceId, userId]);
    if (emails.length === 0) return;
    await this.transactions.query(
      `INSERT INTO scim_user_emails (workspace_id, user_id, position, value, type, is_primary)
       SELECT $1, $2, x.n - 1, x.value, x.type, x.is_primary FROM unnest($3::text[], $4::text[], $5::boolean[]) WITH ORDINALITY AS x(value, type, is_primary, n)`,
      [workspaceId, userId, emails.map((e) => e.value), emails.map((e) => e.type), emails.map((e) => e.primary)],
    );
  }

  async cancelInvite(workspaceId: string, inviteId: string): Promise<void> {
    await this.transactions.query(`UPDATE workspace_invites SET state = 'cancelled', updated_at = clock_timestamp() WHERE workspace_id = $1 AND id = $2`, [workspaceId, inviteId]);
    await this.replaceEmails(workspaceId, inviteId, []);
  }

  /**
   * A SCIM DELETE of a member: gone for SCIM (404, not listed), its userName and email free again,
   * no access; the row stays so that actor references on records and history still resolve.
   */
  async markMemberDeleted(workspaceId: string, memberId: string): Promise<void> {
    await this.members.markDeleted(workspaceId, memberId);
    await this.replaceEmails(workspaceId, memberId, []);
  }

  /** Takes the user out of every team (a deleted user); touches the teams' lastModified. */
  async removeFromAllTeams(workspaceId: string, userId: string): Promise<void> {
    await this.transactions.query(
      `WITH gone AS (DELETE FROM team_memberships WHERE workspace_id = $1 AND user_id = $2 RETURNING team_id)
       UPDATE teams SET updated_at = clock_timestamp() WHERE workspace_id = $1 AND id IN (SELECT team_id FROM gone)`,
      [workspaceId, userId],
    );
  }
}
