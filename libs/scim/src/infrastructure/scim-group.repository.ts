import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Filter } from '../domain/filter';
import type { GroupMemberRef } from '../domain/scim-group';
import { compileFilter, type SqlAttribute, type SqlFilterTarget, type SqlMultiValued } from './filter-sql';

export interface TeamRecord {
  readonly id: string;
  readonly displayName: string;
  readonly externalId: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** `meta.version` without the `W/"…"`: the update time in microseconds. */
  readonly version: string;
}

interface TeamRow {
  id: string;
  display_name: string;
  external_id: string | null;
  created_at: Date;
  updated_at: Date;
  version: string;
}

const COLUMNS = `t.id, t.display_name, t.external_id, t.created_at, t.updated_at, (extract(epoch FROM t.updated_at) * 1000000)::bigint::text AS version`;
const str = (sql: string, caseExact = false) => ({ type: 'string' as const, caseExact, sql });

/** What a Groups filter may name, over `teams` aliased `t`; members through `team_memberships tm`. */
export const GROUP_FILTER_TARGET: SqlFilterTarget = {
  resource: 'Group',
  schemaUrns: ['urn:ietf:params:scim:schemas:core:2.0:group'],
  attributes: new Map<string, SqlAttribute>([
    ['id', str('t.id::text', true)],
    ['displayname', str('t.display_name')],
    ['externalid', str('t.external_id', true)],
    ['meta.created', { type: 'dateTime', caseExact: false, sql: 't.created_at' }],
    ['meta.lastmodified', { type: 'dateTime', caseExact: false, sql: 't.updated_at' }],
    ['meta.resourcetype', str(`'Group'`)],
  ]),
  multiValued: new Map<string, SqlMultiValued>([
    [
      'members',
      {
        subAttributes: new Map<string, SqlAttribute>([
          ['value', str('tm.user_id::text', true)],
          ['type', str(`'User'`)],
          ['display', str('(SELECT u.user_name FROM scim_users u WHERE u.workspace_id = tm.workspace_id AND u.id = tm.user_id)')],
        ]),
        anyElement: (condition: string) =>
          `EXISTS (SELECT 1 FROM team_memberships tm WHERE tm.workspace_id = t.workspace_id AND tm.team_id = t.id AND ${condition})`,
      },
    ],
  ]),
};

const toRecord = (row: TeamRow): TeamRecord => ({
  id: row.id,
  displayName: row.display_name,
  externalId: row.external_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

/** Teams and their memberships; every method takes the workspace first. */
@Injectable()
export class ScimGroupRepository {
  constructor(private readonly transactions: TransactionRunner) {}


  async list(workspaceId: string, filter: Filter | null, offset: number, limit: number): Promise<{ total: number; teams: TeamRecord[] }> {
    const params: unknown[] = [workspaceId];
    const where = filter ? ` AND ${compileFilter(filter, GROUP_FILTER_TARGET, params)}` : '';
    const [{ total }] = await this.transactions.query<{ total: number }>(`SELECT count(*)::int AS total FROM teams t WHERE t.workspace_id = $1${where}`, params);
    if (limit === 0 || total <= offset) return { total, teams: [] };
    const rows = await this.transactions.query<TeamRow>(
      `SELECT ${COLUMNS} FROM teams t WHERE t.workspace_id = $1${where} ORDER BY t.created_at, t.id OFFSET ${offset} LIMIT ${limit}`,
      params,
    );
    return { total, teams: rows.map(toRecord) };
  }

  async findById(workspaceId: string, teamId: string, options: { lock?: boolean } = {}): Promise<TeamRecord | null> {
    if (!isUuid(teamId) || teamId !== teamId.toLowerCase()) return null; // ids are case-exact
    const rows = await this.transactions.query<TeamRow>(`SELECT ${COLUMNS} FROM teams t WHERE t.workspace_id = $1 AND t.id = $2${options.lock ? ' FOR UPDATE' : ''}`, [
      workspaceId,
      teamId,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Another team with this display name (case-insensitive), if any. */
  async findOtherByDisplayName(workspaceId: string, displayName: string, exceptTeamId: string | null): Promise<TeamRecord | null> {
    const rows = await this.transactions.query<TeamRow>(
      `SELECT ${COLUMNS} FROM teams t WHERE t.workspace_id = $1 AND lower(t.display_name) = lower($2) AND ($3::uuid IS NULL OR t.id <> $3::uuid)`,
      [workspaceId, displayName, exceptTeamId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async lockDisplayName(workspaceId: string, displayName: string): Promise<void> {
    await this.transactions.query(`SELECT pg_advisory_xact_lock(hashtext('scim-team:' || $1 || ':' || lower($2)))`, [workspaceId, displayName]);
  }

  async insert(workspaceId: string, team: { id: string; displayName: string; externalId: string | null }): Promise<void> {
    await this.transactions.query(`INSERT INTO teams (workspace_id, id, display_name, external_id) VALUES ($1, $2, $3, $4)`, [workspaceId, team.id, team.displayName, team.externalId]);
  }

  async update(workspaceId: string, team: { id: string; displayName: string; externalId: string | null }): Promise<void> {
    await this.transactions.query(`UPDATE teams SET display_name = $3, external_id = $4, updated_at = clock_timestamp() WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      team.id,
      team.displayName,
      team.externalId,
    ]);
  }

  async delete(workspaceId: string, teamId: string): Promise<void> {
    await this.transactions.query(`DELETE FROM teams WHERE workspace_id = $1 AND id = $2`, [workspaceId, teamId]);
  }

  /** Members of the given teams in the order they joined, with their userName as `display`. */
  async membersOf(workspaceId: string, teamIds: readonly string[]): Promise<Map<string, GroupMemberRef[]>> {
    const byTeam = new Map<string, GroupMemberRef[]>(teamIds.map((id) => [id, []]));
    if (teamIds.length === 0) return byTeam;
    const rows = await this.transactions.query<{ team_id: string; user_id: string; user_name: string }>(
      `SELECT tm.team_id, tm.user_id, u.user_name
         FROM team_memberships tm JOIN scim_users u ON u.workspace_id = tm.workspace_id AND u.id = tm.user_id
        WHERE tm.workspace_id = $1 AND tm.team_id = ANY ($2::uuid[])
        ORDER BY tm.created_at, tm.user_id`,
      [workspaceId, teamIds],
    );
    for (const row of rows) byTeam.get(row.team_id)?.push({ value: row.user_id, display: row.user_name });
    return byTeam;
  }

  /** Which of these ids are users of the workspace, and of which kind. */
  async userKinds(workspaceId: string, userIds: readonly string[]): Promise<Map<string, 'member' | 'invite'>> {
    const ids = userIds.filter((id) => isUuid(id));
    if (ids.length === 0) return new Map();
    const rows = await this.transactions.query<{ id: string; kind: 'member' | 'invite' }>(`SELECT id, kind FROM scim_users WHERE workspace_id = $1 AND id = ANY ($2::uuid[])`, [
      workspaceId,
      ids,
    ]);
    return new Map(rows.map((row) => [row.id, row.kind]));
  }

  /** Makes the team's member list exactly `members` (ids already checked), keeping join order of those who stay. */
  async setMembers(workspaceId: string, teamId: string, members: ReadonlyArray<{ id: string; kind: 'member' | 'invite' }>): Promise<void> {
    await this.transactions.query(`DELETE FROM team_memberships WHERE workspace_id = $1 AND team_id = $2 AND NOT (user_id = ANY ($3::uuid[]))`, [
      workspaceId,
      teamId,
      members.map((m) => m.id),
    ]);
    if (members.length === 0) return;
    await this.transactions.query(
      `INSERT INTO team_memberships (workspace_id, team_id, member_id, invite_id)
       SELECT $1, $2, x.member_id, x.invite_id FROM unnest($3::uuid[], $4::uuid[]) WITH ORDINALITY AS x(member_id, invite_id, n)
        ORDER BY x.n
       ON CONFLICT DO NOTHING`,
      [workspaceId, teamId, members.map((m) => (m.kind === 'member' ? m.id : null)), members.map((m) => (m.kind === 'invite' ? m.id : null))],
    );
  }
}
