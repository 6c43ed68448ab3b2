import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Filter } from '../domain/filter';
import type { AppRole, InviteState, MemberState, ScimUserRecord, UserKind } from '../domain/scim-user';
import { compileFilter, type SqlFilterTarget } from './filter-sql';

interface UserRow {
  id: string;
  kind: UserKind;
  user_name: string;
  first_name: string | null;
  last_name: string | null;
  external_id: string | null;
  access_level: AppRole;
  state: MemberState | InviteState;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'u.id, u.kind, u.user_name, u.first_name, u.last_name, u.external_id, u.access_level, u.state, u.created_at, u.updated_at';

const str = (sql: string, caseExact = false) => ({ type: 'string' as const, caseExact, sql });

/** What a Users filter may name, over the `scim_users` view aliased `u`. */
export const USER_FILTER_TARGET: SqlFilterTarget = {
  resource: 'User',
  schemaUrns: ['urn:ietf:params:scim:schemas:core:2.0:user'],
  attributes: {
    id: str('u.id::text', true),
    username: str('u.user_name'),
    externalid: str('u.external_id', true),
    'name.givenname': str('u.first_name'),
    'name.familyname': str('u.last_name'),
    active: { type: 'boolean', caseExact: false, sql: 'u.active' },
    approle: str('u.access_level'),
    'meta.created': { type: 'dateTime', caseExact: false, sql: 'u.created_at' },
    'meta.lastmodified': { type: 'dateTime', caseExact: false, sql: 'u.updated_at' },
    'meta.resourcetype': str(`'User'`),
  },
  multiValued: {
    // Every user has exactly one email, its userName, of type "work", primary.
    emails: {
      subAttributes: { value: str('u.user_name'), type: str(`'work'`), primary: { type: 'boolean', caseExact: false, sql: 'true' }, display: str('NULL::text') },
      anyElement: (condition) => condition,
    },
  },
};

function toRecord(row: UserRow): ScimUserRecord {
  return {
    id: row.id,
    kind: row.kind,
    userName: row.user_name,
    givenName: row.first_name,
    familyName: row.last_name,
    externalId: row.external_id,
    appRole: row.access_level,
    state: row.state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** SCIM's reads and writes of members and invites; every method takes the workspace first. */
@Injectable()
export class ScimUserStore {
  constructor(private readonly transactions: TransactionRunner) {}

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.transactions.manager().query(sql, params);
  }

  /** A page of users matching the filter, in creation order, and the number of all matches. */
  async list(workspaceId: string, filter: Filter | null, offset: number, limit: number): Promise<{ total: number; users: ScimUserRecord[] }> {
    const params: unknown[] = [workspaceId];
    const where = filter ? ` AND ${compileFilter(filter, USER_FILTER_TARGET, params)}` : '';
    const [{ total }] = await this.query<{ total: number }>(`SELECT count(*)::int AS total FROM scim_users u WHERE u.workspace_id = $1${where}`, params);
    if (limit === 0 || total <= offset) return { total, users: [] };
    const rows = await this.query<UserRow>(
      `SELECT ${COLUMNS} FROM scim_users u WHERE u.workspace_id = $1${where}
        ORDER BY u.created_at, u.id OFFSET ${offset} LIMIT ${limit}`,
      params,
    );
    return { total, users: rows.map(toRecord) };
  }

  async findById(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<ScimUserRecord | null> {
    if (!isUuid(id)) return null;
    const rows = await this.query<UserRow>(`SELECT ${COLUMNS} FROM scim_users u WHERE u.workspace_id = $1 AND u.id = $2`, [workspaceId, id]);
    const user = rows[0] ? toRecord(rows[0]) : null;
    if (user && options.lock) {
      const table = user.kind === 'member' ? 'workspace_members' : 'workspace_invites';
      await this.query(`SELECT 1 FROM ${table} WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [workspaceId, id]);
      return this.findById(workspaceId, id);
    }
    return user;
  }

  /** The users (members in any state, live invites) with this userName, case-insensitively. */
  async findByUserName(workspaceId: string, userName: string): Promise<ScimUserRecord[]> {
    const rows = await this.query<UserRow>(`SELECT ${COLUMNS} FROM scim_users u WHERE u.workspace_id = $1 AND lower(u.user_name) = lower($2)`, [workspaceId, userName]);
    return rows.map(toRecord);
  }

  /** Serialises writers of one address in one workspace until the transaction ends. */
  async lockUserName(workspaceId: string, userName: string): Promise<void> {
    await this.query(`SELECT pg_advisory_xact_lock(hashtext('scim-user:' || $1 || ':' || lower($2)))`, [workspaceId, userName]);
  }

  async verifiedDomains(workspaceId: string): Promise<string[]> {
    const rows = await this.query<{ domains: string[] }>(`SELECT verified_email_domains AS domains FROM workspaces WHERE id = $1`, [workspaceId]);
    return (rows[0]?.domains ?? []).map((domain) => domain.toLowerCase());
  }

  async insertInvite(
    workspaceId: string,
    invite: { id: string; userName: string; givenName: string | null; familyName: string | null; externalId: string | null; appRole: AppRole; state: InviteState },
  ): Promise<void> {
    await this.query(
      `INSERT INTO workspace_invites (workspace_id, id, email, first_name, last_name, access_level, external_id, state)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [workspaceId, invite.id, invite.userName, invite.givenName, invite.familyName, invite.appRole, invite.externalId, invite.state],
    );
  }

  /** Writes the SCIM-owned fields of a member or invite and its state. */
  async update(
    workspaceId: string,
    user: Pick<ScimUserRecord, 'id' | 'kind' | 'userName' | 'givenName' | 'familyName' | 'externalId' | 'appRole' | 'state'>,
  ): Promise<void> {
    const table = user.kind === 'member' ? 'workspace_members' : 'workspace_invites';
    await this.query(
      `UPDATE ${table} SET email = $3, first_name = $4, last_name = $5, external_id = $6, access_level = $7, state = $8, updated_at = clock_timestamp()
        WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, user.id, user.userName, user.givenName, user.familyName, user.externalId, user.appRole, user.state],
    );
  }

  async cancelInvite(workspaceId: string, inviteId: string): Promise<void> {
    await this.query(`UPDATE workspace_invites SET state = 'cancelled', updated_at = clock_timestamp() WHERE workspace_id = $1 AND id = $2`, [workspaceId, inviteId]);
  }

  /** Takes the user out of every team (a deleted user); touches the teams' lastModified. */
  async removeFromAllTeams(workspaceId: string, userId: string): Promise<void> {
    await this.query(
      `WITH gone AS (DELETE FROM team_memberships WHERE workspace_id = $1 AND user_id = $2 RETURNING team_id)
       UPDATE teams SET updated_at = clock_timestamp() WHERE workspace_id = $1 AND id IN (SELECT team_id FROM gone)`,
      [workspaceId, userId],
    );
  }
}
