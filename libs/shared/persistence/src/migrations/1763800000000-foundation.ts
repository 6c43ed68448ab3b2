import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenancy, tokens and the event outbox. Every table but `workspaces` is keyed by workspace_id
 * first, so that the schema can be distributed by workspace when one server is outgrown.
 */
export class Foundation1763800000000 implements MigrationInterface {
  name = 'Foundation1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE workspaces (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        slug text NOT NULL,
        logo_url text,
        verified_email_domains text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT workspaces_slug_unique UNIQUE (slug)
      )`);
    await db.query(`
      CREATE TABLE workspace_members (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        email text NOT NULL,
        first_name text,
        last_name text,
        avatar_url text,
        access_level text NOT NULL CHECK (access_level IN ('admin', 'member')),
        state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'suspended', 'deprovisioned')),
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id)
      )`);
    await db.query(`CREATE UNIQUE INDEX workspace_members_email_unique ON workspace_members (workspace_id, lower(email))`);
    await db.query(`CREATE INDEX workspace_members_email_lookup ON workspace_members (lower(email))`);
    await db.query(`
      CREATE TABLE api_tokens (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        token_hash bytea NOT NULL,
        name text,
        client_id text,
        authorized_by_member_id uuid NOT NULL,
        scopes text[] NOT NULL,
        issued_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, authorized_by_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE CASCADE
      )`);
    // Tokens are looked up by hash before the workspace is known: the one global unique index.
    await db.query(`CREATE UNIQUE INDEX api_tokens_token_hash ON api_tokens (token_hash)`);
    await db.query(`
      CREATE TABLE event_outbox (
        workspace_id uuid NOT NULL,
        id bigint GENERATED ALWAYS AS IDENTITY,
        event_type text NOT NULL,
        entity_id jsonb NOT NULL,
        actor jsonb NOT NULL,
        payload jsonb NOT NULL DEFAULT '{}',
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id)
      )`);
    await db.query(`CREATE INDEX event_outbox_sequence ON event_outbox (id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE event_outbox`);
    await db.query(`DROP TABLE api_tokens`);
    await db.query(`DROP TABLE workspace_members`);
    await db.query(`DROP TABLE workspaces`);
  }
}
