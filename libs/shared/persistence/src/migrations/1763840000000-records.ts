import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The record engine: containers (objects here; lists and activities add their own tables), their
 * attributes, select options and statuses, records, and every value a record ever had. See
 * libs/records/README.md for why values are stored one row per value with typed columns.
 */
export class Records1763840000000 implements MigrationInterface {
  name = 'Records1763840000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE objects (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        api_slug text NOT NULL,
        singular_noun text NOT NULL,
        plural_noun text NOT NULL,
        is_standard boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT objects_slug_unique UNIQUE (workspace_id, api_slug)
      )`);
    await db.query(`
      CREATE TABLE attributes (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        container_kind text NOT NULL CHECK (container_kind IN ('object', 'list', 'activity')),
        container_id uuid NOT NULL,
        api_slug text NOT NULL,
        title text NOT NULL,
        description text,
        type text NOT NULL,
        is_system boolean NOT NULL DEFAULT false,
        is_writable boolean NOT NULL DEFAULT true,
        is_required boolean NOT NULL DEFAULT false,
        is_unique boolean NOT NULL DEFAULT false,
        is_multiselect boolean NOT NULL DEFAULT false,
        is_archived boolean NOT NULL DEFAULT false,
        is_inherited boolean NOT NULL DEFAULT false,
        default_value jsonb,
        config jsonb NOT NULL DEFAULT '{}',
        relationship_attribute_id uuid,
        position integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT attributes_slug_unique UNIQUE (workspace_id, container_id, api_slug)
      )`);
    await db.query(`CREATE INDEX attributes_container ON attributes (workspace_id, container_id, position)`);
    await db.query(`
      CREATE TABLE select_options (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        attribute_id uuid NOT NULL,
        title text NOT NULL,
        is_archived boolean NOT NULL DEFAULT false,
        position integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT select_options_title_unique UNIQUE (workspace_id, attribute_id, title),
        FOREIGN KEY (workspace_id, attribute_id) REFERENCES attributes (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`
      CREATE TABLE statuses (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        attribute_id uuid NOT NULL,
        title text NOT NULL,
        is_archived boolean NOT NULL DEFAULT false,
        celebration_enabled boolean NOT NULL DEFAULT false,
        target_time_in_status text,
        position integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT statuses_title_unique UNIQUE (workspace_id, attribute_id, title),
        FOREIGN KEY (workspace_id, attribute_id) REFERENCES attributes (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`
      CREATE TABLE records (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        container_id uuid NOT NULL,
        parent_record_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        created_by jsonb NOT NULL,
        version bigint NOT NULL DEFAULT 1,
        PRIMARY KEY (workspace_id, id)
      )`);
    await db.query(`CREATE INDEX records_container_created ON records (workspace_id, container_id, created_at, id)`);
    await db.query(`CREATE INDEX records_parent ON records (workspace_id, parent_record_id) WHERE parent_record_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE record_values (
        workspace_id uuid NOT NULL,
        id bigint GENERATED ALWAYS AS IDENTITY,
        record_id uuid NOT NULL,
        attribute_id uuid NOT NULL,
        active_from timestamptz NOT NULL,
        active_until timestamptz,
        created_by jsonb NOT NULL,
        value_text text,
        value_number numeric,
        value_bool boolean,
        value_date date,
        value_timestamp timestamptz,
        value_ref uuid,
        value_ref_type text,
        value_json jsonb,
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, record_id) REFERENCES records (workspace_id, id) ON DELETE CASCADE
      )`);
    // A record's values (current and historic), in write order.
    await db.query(`CREATE INDEX record_values_by_record ON record_values (workspace_id, record_id, attribute_id, id)`);
    // Filters and sorts read only current values: partial indexes per typed column.
    const current = 'WHERE active_until IS NULL';
    await db.query(`CREATE INDEX record_values_text ON record_values (workspace_id, attribute_id, value_text, record_id) ${current} AND value_text IS NOT NULL`);
    await db.query(`CREATE INDEX record_values_text_ci ON record_values (workspace_id, attribute_id, lower(value_text) text_pattern_ops, record_id) ${current} AND value_text IS NOT NULL`);
    await db.query(`CREATE INDEX record_values_number ON record_values (workspace_id, attribute_id, value_number, record_id) ${current} AND value_number IS NOT NULL`);
    await db.query(`CREATE INDEX record_values_timestamp ON record_values (workspace_id, attribute_id, value_timestamp, record_id) ${current} AND value_timestamp IS NOT NULL`);
    await db.query(`CREATE INDEX record_values_date ON record_values (workspace_id, attribute_id, value_date, record_id) ${current} AND value_date IS NOT NULL`);
    await db.query(`CREATE INDEX record_values_ref ON record_values (workspace_id, attribute_id, value_ref, record_id) ${current} AND value_ref IS NOT NULL`);
    await db.query(`CREATE INDEX record_values_bool ON record_values (workspace_id, attribute_id, value_bool, record_id) ${current} AND value_bool IS NOT NULL`);
    // Database-enforced uniqueness of unique attributes' current values, race-free under concurrency.
    await db.query(`
      CREATE TABLE unique_values (
        workspace_id uuid NOT NULL,
        attribute_id uuid NOT NULL,
        value_key text NOT NULL,
        record_id uuid NOT NULL,
        PRIMARY KEY (workspace_id, attribute_id, value_key),
        FOREIGN KEY (workspace_id, record_id) REFERENCES records (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX unique_values_record ON unique_values (workspace_id, record_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['unique_values', 'record_values', 'records', 'statuses', 'select_options', 'attributes', 'objects']) {
      await db.query(`DROP TABLE ${table}`);
    }
  }
}
