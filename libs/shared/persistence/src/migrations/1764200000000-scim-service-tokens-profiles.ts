import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 16: SCIM as identity providers run it.
 *
 * - `api_tokens.kind`: a workspace API token (`token:create`) is a `service` credential of the
 *   workspace and names no member; OAuth tokens stay `member` tokens, tied to the member who
 *   granted them. Existing tokens without an OAuth client become service tokens.
 * - `user_name`: a SCIM userName is any string, unique case-insensitively among the live users of
 *   a workspace; the member's `email` is derived from the SCIM `emails`. Backfilled from email.
 * - `scim_profile`: what identity providers write that the workspace itself does not model
 *   (displayName, title, phone numbers, the enterprise extension, `emails` as sent, ...), kept so
 *   that it round-trips exactly.
 * - `deleted_at`: a SCIM DELETE hides the member from SCIM for good (404, not listed, userName and
 *   email free again) while the row stays, so actor references on records and history resolve.
 * - `scim_user_emails`: one row per SCIM email, so `emails[type eq "work"].value eq …` is an index probe.
 */
export class ScimServiceTokensProfiles1764200000000 implements MigrationInterface {
  name = 'ScimServiceTokensProfiles1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE api_tokens ADD COLUMN kind text NOT NULL DEFAULT 'member' CHECK (kind IN ('member', 'service'))`);
    await db.query(`ALTER TABLE api_tokens ALTER COLUMN authorized_by_member_id DROP NOT NULL`);
    await db.query(`UPDATE api_tokens SET kind = 'service', authorized_by_member_id = NULL WHERE client_id IS NULL`);
    await db.query(`ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind_member CHECK ((kind = 'service') = (authorized_by_member_id IS NULL))`);

    await db.query(`DROP VIEW scim_users`);
    for (const table of ['workspace_members', 'workspace_invites']) {
      await db.query(`ALTER TABLE ${table} ADD COLUMN user_name text`);
      await db.query(`UPDATE ${table} SET user_name = email`);
      await db.query(`ALTER TABLE ${table} ALTER COLUMN user_name SET NOT NULL`);
      await db.query(`ALTER TABLE ${table} ADD COLUMN scim_profile jsonb NOT NULL DEFAULT '{}'`);
    }
    await db.query(`ALTER TABLE workspace_members ADD COLUMN deleted_at timestamptz`);
    await db.query(`DROP INDEX workspace_members_email_unique`);
    await db.query(`CREATE UNIQUE INDEX workspace_members_email_unique ON workspace_members (workspace_id, lower(email)) WHERE deleted_at IS NULL`);
    await db.query(`CREATE UNIQUE INDEX workspace_members_user_name_unique ON workspace_members (workspace_id, lower(user_name)) WHERE deleted_at IS NULL`);
    await db.query(`CREATE UNIQUE INDEX workspace_invites_user_name_unique ON workspace_invites (workspace_id, lower(user_name)) WHERE state <> 'cancelled'`);
    await db.query(`CREATE INDEX workspace_invites_external_id ON workspace_invites (workspace_id, external_id)`);
    await db.query(`
      CREATE TABLE scim_user_emails (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        position int NOT NULL,
        value text NOT NULL,
        type text,
        is_primary boolean NOT NULL DEFAULT false,
        PRIMARY KEY (workspace_id, user_id, position)
      )`);
    await db.query(`CREATE INDEX scim_user_emails_value ON scim_user_emails (workspace_id, lower(value))`);
    await db.query(`
      INSERT INTO scim_user_emails (workspace_id, user_id, position, value, type, is_primary)
      SELECT workspace_id, id, 0, email, 'work', true FROM workspace_members
      UNION ALL
      SELECT workspace_id, id, 0, email, 'work', true FROM workspace_invites WHERE state <> 'cancelled'`);
    // A member made outside SCIM (CLI, first start) is found by its email as its one work address.
    await db.query(`
      CREATE FUNCTION scim_user_emails_for_new_member() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO scim_user_emails (workspace_id, user_id, position, value, type, is_primary)
        VALUES (NEW.workspace_id, NEW.id, 0, NEW.email, 'work', true) ON CONFLICT DO NOTHING;
        RETURN NEW;
      END $$`);
    await db.query(`
      CREATE TRIGGER workspace_members_scim_email AFTER INSERT ON workspace_members
      FOR EACH ROW EXECUTE FUNCTION scim_user_emails_for_new_member()`);
    await db.query(`
      CREATE VIEW scim_users AS
        SELECT workspace_id, id, 'member'::text AS kind, user_name, email, first_name, last_name, external_id,
               access_level, state, (state = 'active') AS active, scim_profile, created_at, updated_at
          FROM workspace_members
         WHERE deleted_at IS NULL
        UNION ALL
        SELECT workspace_id, id, 'invite'::text AS kind, user_name, email, first_name, last_name, external_id,
               access_level, state, (state = 'pending') AS active, scim_profile, created_at, updated_at
          FROM workspace_invites
         WHERE state <> 'cancelled'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP VIEW scim_users`);
    await db.query(`DROP TRIGGER workspace_members_scim_email ON workspace_members`);
    await db.query(`DROP FUNCTION scim_user_emails_for_new_member()`);
    await db.query(`DROP TABLE scim_user_emails`);
    await db.query(`DROP INDEX workspace_invites_external_id`);
    await db.query(`DROP INDEX workspace_invites_user_name_unique`);
    await db.query(`DROP INDEX workspace_members_user_name_unique`);
    await db.query(`DROP INDEX workspace_members_email_unique`);
    await db.query(`DELETE FROM workspace_members WHERE deleted_at IS NOT NULL`);
    await db.query(`CREATE UNIQUE INDEX workspace_members_email_unique ON workspace_members (workspace_id, lower(email))`);
    await db.query(`ALTER TABLE workspace_members DROP COLUMN deleted_at`);
    for (const table of ['workspace_members', 'workspace_invites']) {
      await db.query(`ALTER TABLE ${table} DROP COLUMN scim_profile`);
      await db.query(`ALTER TABLE ${table} DROP COLUMN user_name`);
    }
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
    await db.query(`DELETE FROM api_tokens WHERE kind = 'service'`);
    await db.query(`ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_kind_member`);
    await db.query(`ALTER TABLE api_tokens ALTER COLUMN authorized_by_member_id SET NOT NULL`);
    await db.query(`ALTER TABLE api_tokens DROP COLUMN kind`);
  }
}
