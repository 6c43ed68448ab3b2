import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OAuth 2.0 authorization server: registered apps (clients), sign-in sessions of members and
 * authorization codes.
 *
 * `oauth_apps` is the one table here not keyed by workspace: an app is registered once by the
 * operator and installed into any number of workspaces (as the reference API's apps are), and its
 * client_id is looked up before any workspace is known. It holds no workspace data; what an app
 * obtains in a workspace (codes, tokens) is keyed by that workspace. Sessions and codes are looked
 * up by the hash of their secret before the workspace is known, hence their global hash indexes,
 * as `api_tokens` does.
 */
export class OAuth1763810000000 implements MigrationInterface {
  name = 'OAuth1763810000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE oauth_apps (
        client_id uuid PRIMARY KEY,
        client_secret_hash bytea NOT NULL,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) > 0),
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE oauth_sessions (
        workspace_id uuid NOT NULL,
        id uuid NOT NULL,
        session_hash bytea NOT NULL,
        member_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE CASCADE
      )`);
    // One row per workspace membership the sign-in proved; a browser's session is all rows of its hash.
    await db.query(`CREATE INDEX oauth_sessions_session_hash ON oauth_sessions (session_hash)`);
    await db.query(`
      CREATE TABLE oauth_authorization_codes (
        workspace_id uuid NOT NULL,
        id uuid NOT NULL,
        code_hash bytea NOT NULL,
        client_id uuid NOT NULL REFERENCES oauth_apps (client_id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        redirect_uri text NOT NULL,
        redirect_uri_sent boolean NOT NULL,
        scopes text[] NOT NULL,
        code_challenge text,
        code_challenge_method text CHECK (code_challenge_method IN ('S256')),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        issued_token_id uuid,
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE UNIQUE INDEX oauth_authorization_codes_code_hash ON oauth_authorization_codes (code_hash)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE oauth_authorization_codes`);
    await db.query(`DROP TABLE oauth_sessions`);
    await db.query(`DROP TABLE oauth_apps`);
  }
}
