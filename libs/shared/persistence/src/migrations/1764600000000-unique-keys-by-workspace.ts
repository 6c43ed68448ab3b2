import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The last two unique keys of workspace data that did not include `workspace_id`: the hashes of
 * API tokens and of OAuth authorization codes. A table distributed by `workspace_id` (Citus) can
 * only enforce uniqueness that includes it (see `DISTRIBUTION` in ../distribution.ts). Both hashes
 * are SHA-256 of 256 random bits, so their global uniqueness never came from the index; the
 * lookups by hash alone (the workspace is what the token tells) keep a plain index.
 */
export class UniqueKeysByWorkspace1764600000000 implements MigrationInterface {
  name = 'UniqueKeysByWorkspace1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX api_tokens_token_hash`);
    await db.query(`CREATE UNIQUE INDEX api_tokens_token_hash ON api_tokens (workspace_id, token_hash)`);
    await db.query(`CREATE INDEX api_tokens_by_hash ON api_tokens (token_hash)`);
    await db.query(`DROP INDEX oauth_authorization_codes_code_hash`);
    await db.query(`CREATE UNIQUE INDEX oauth_authorization_codes_code_hash ON oauth_authorization_codes (workspace_id, code_hash)`);
    await db.query(`CREATE INDEX oauth_authorization_codes_by_hash ON oauth_authorization_codes (code_hash)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX oauth_authorization_codes_by_hash`);
    await db.query(`DROP INDEX oauth_authorization_codes_code_hash`);
    await db.query(`CREATE UNIQUE INDEX oauth_authorization_codes_code_hash ON oauth_authorization_codes (code_hash)`);
    await db.query(`DROP INDEX api_tokens_by_hash`);
    await db.query(`DROP INDEX api_tokens_token_hash`);
    await db.query(`CREATE UNIQUE INDEX api_tokens_token_hash ON api_tokens (token_hash)`);
  }
}
