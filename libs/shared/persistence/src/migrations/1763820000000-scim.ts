import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCIM provisioning: pending invites, teams and their memberships, and the identity provider's
 * `externalId` on members. Every table is keyed by workspace_id first. The `scim_users` view is
 * the one SCIM User collection (members in any state, invites that were not cancelled), so that
 * filters compile to one SQL WHERE clause over both kinds of user.
 */
export class Scim1763820000000 implements MigrationInterface {
  name = 'Scim1763820000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE workspace_members ADD COLUMN external_id text`);
    await db.query(`
      CREATE TABLE workspace_invites (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        email text NOT NULL,
        first_name text,
        last_name text,
        access_level text NOT NULL CHECK (access_level IN ('admin', 'member')),
        external_id text,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'deprovisioned', 'cancelled')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id)
      )`);
    // One live (pending or deprovisioned) invite per address; cancelled ones are history.
    await db.query(`CREATE UNIQUE INDEX workspace_invites_email_unique ON workspace_invites (workspace_id, lower(email)) WHERE state <> 'cancelled'`);
    await db.query(`
      CREATE TABLE teams (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        display_name text NOT NULL CHECK (btrim(display_name) <> ''),
        external_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id)
      )`);
    await db.query(`CREATE UNIQUE INDEX teams_display_name_unique ON teams (workspace_id, lower(display_name))`);
    await db.query(`CREATE INDEX teams_external_id ON teams (workspace_id, external_id)`);
    // A team member is a workspace member or a pending invite: exactly one of the two columns.
    await db.query(`
      CREATE TABLE team_memberships (
        workspace_id uuid NOT NULL,
        team_id uuid NOT NULL,
        member_id uuid,
        invite_id uuid,
        user_id uuid GENERATED ALWAYS AS (COALESCE(member_id, invite_id)) STORED,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, team_id, user_id),
        CHECK ((member_id IS NULL) <> (invite_id IS NULL)),
        FOREIGN KEY (workspace_id, team_id) REFERENCES teams (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, invite_id) REFERENCES workspace_invites (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX team_memberships_user ON team_memberships (workspace_id, user_id)`);
    await db.query(`CREATE INDEX workspace_members_external_id ON workspace_members (workspace_id, external_id)`);
    await db.query(`
      CREATE VIEW scim_users AS
        SELECT workspace_id, id, 'member'::text AS kind, email AS user_name, first_name, last_name, external_id,
               access_level, state, (state = 'active') AS active, created_at, updated_at
          FROM workspace_members
        UNION ALL
        SELECT workspace_id, id, 'invite'::text AS kind, email AS user_name, first_name, last_name, external_id,
               access_level, state, (state = 'pending') AS active, created_at, updated_at
          FROM workspace_invites
         WHERE state <> 'cancelled'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP VIEW scim_users`);
    await db.query(`DROP TABLE team_memberships`);
    await db.query(`DROP TABLE teams`);
    await db.query(`DROP TABLE workspace_invites`);
    await db.query(`DROP INDEX workspace_members_external_id`);
    await db.query(`ALTER TABLE workspace_members DROP COLUMN external_id`);
  }
}
