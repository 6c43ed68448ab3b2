import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (libs/audit): one entry per change, written in the change's transaction, chained
 * per workspace. The trigger numbers each entry and hashes it under a lock of the workspace's chain
 * head, so appends to one workspace's chain are serial and the chain has no gaps or forks:
 *   content_hash = sha256(canonical text of the entry)      (audit_canonical below)
 *   hash         = sha256(prev_hash || content_hash)        (prev_hash: the previous entry's hash)
 * The first entry's prev_hash is the head's anchor: 64 zeros, or after a retention cut the hash of
 * the last entry removed, so the kept entries still verify (cli audit:verify recomputes all this).
 */
export class AuditLog1765500000000 implements MigrationInterface {
  name = 'AuditLog1765500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_chain_heads (
        workspace_id uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
        last_seq bigint NOT NULL,
        last_hash text NOT NULL,
        anchor_seq bigint NOT NULL DEFAULT 0,
        anchor_hash text NOT NULL DEFAULT repeat('0', 64)
      )`);
    await db.query(`
      CREATE TABLE audit_log (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        occurred_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
        actor jsonb NOT NULL,
        actor_id text,
        request_id text,
        action text NOT NULL,
        target_kind text NOT NULL,
        target_id text NOT NULL,
        target jsonb NOT NULL,
        changes jsonb,
        prev_hash text NOT NULL,
        content_hash text NOT NULL,
        hash text NOT NULL,
        PRIMARY KEY (workspace_id, seq)
      )`);
    await db.query(`CREATE UNIQUE INDEX audit_log_id ON audit_log (workspace_id, id)`);
    await db.query(`CREATE INDEX audit_log_target ON audit_log (workspace_id, target_id, seq)`);
    await db.query(`CREATE INDEX audit_log_actor ON audit_log (workspace_id, actor_id, seq)`);
    await db.query(`CREATE INDEX audit_log_action ON audit_log (workspace_id, action, seq)`);
    await db.query(`CREATE INDEX audit_log_time ON audit_log (workspace_id, occurred_at)`);
    // The canonical text of an entry: every field but the hashes, in a fixed order; jsonb's text
    // form is canonical (keys sorted, one spacing), the time is UTC to the microsecond.
    await db.query(`
      CREATE FUNCTION audit_canonical(e audit_log) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT concat_ws(E'\\n', e.workspace_id::text, e.seq::text, e.id::text,
          to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          e.actor::text, coalesce(e.actor_id, ''), coalesce(e.request_id, ''), e.action, e.target_kind, e.target_id,
          e.target::text, coalesce(e.changes::text, 'null'))
      $$`);
    await db.query(`
      CREATE FUNCTION audit_chain_append() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        head audit_chain_heads%ROWTYPE;
      BEGIN
        SELECT * INTO head FROM audit_chain_heads WHERE workspace_id = NEW.workspace_id FOR UPDATE;
        IF NOT FOUND THEN
          INSERT INTO audit_chain_heads (workspace_id, last_seq, last_hash) VALUES (NEW.workspace_id, 0, repeat('0', 64))
            ON CONFLICT (workspace_id) DO NOTHING;
          SELECT * INTO head FROM audit_chain_heads WHERE workspace_id = NEW.workspace_id FOR UPDATE;
        END IF;
        NEW.seq := head.last_seq + 1;
        NEW.prev_hash := head.last_hash;
        NEW.content_hash := encode(sha256(convert_to(audit_canonical(NEW), 'UTF8')), 'hex');
        NEW.hash := encode(sha256(convert_to(NEW.prev_hash || NEW.content_hash, 'UTF8')), 'hex');
        UPDATE audit_chain_heads SET last_seq = NEW.seq, last_hash = NEW.hash WHERE workspace_id = NEW.workspace_id;
        RETURN NEW;
      END
      $$`);
    await db.query(`CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_chain_append()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE audit_log`);
    await db.query(`DROP FUNCTION audit_chain_append()`);
    await db.query(`DROP TABLE audit_chain_heads`);
  }
}
