import { Injectable } from '@nestjs/common';
import type { Actor, DomainEvent } from '@workbase/shared/kernel';
import { arrayLiteral, OUTBOX_NOTIFY, recordedEvents, TransactionRunner } from '@workbase/shared/persistence';
import type { StoredValue } from '@workbase/schema';
import { type RecordRow, toRecord, type ValueRowWithRecord } from './record.repository';
import { asJsonb, isoNanos } from './sql';

/** One value row to open: of a new record, or a mirrored link on another record. */
export interface NewValueRow {
  readonly recordId: string;
  readonly attributeId: string;
  readonly value: StoredValue;
}

/** A unique value claimed by a record. */
export interface UniqueClaim {
  readonly attributeId: string;
  readonly key: string;
  readonly recordId: string;
}

/**
 * The workspace of a look-up of many keys, as a value the planner cannot see. Such look-ups probe
 * the unique key once per key (`CROSS JOIN LATERAL (… LIMIT 1)`) instead of `workspace_id = $1 AND
 * id = ANY ($2)`. The planner costs the latter from the workspace's share of the table in its
 * statistics, and a workspace growing faster than autovacuum re-analyses (a bulk import into a new
 * workspace: 100,000 people in a minute) looks a few hundred rows big, or one: the look-up became a
 * scan of all the workspace's rows, growing with every batch (bench/RESULTS.md, issue 30: 17 → 131
 * ms per 1,000 ids over an import of 100,000), and a probe bounded by `workspace_id = $1` alone
 * looked as cheap as one by the whole key. A value the planner cannot see is estimated at the
 * table's average share per workspace, never one row, so the whole unique key (one row) always
 * wins; and a probe per key leaves it no join to choose (test/e2e/records-batch-plans).
 */
const UNSEEN_WORKSPACE = '(SELECT $1::uuid)';

/**
 * The set-based statements of a batch of record writes: each takes every item of the batch at
 * once as arrays (`unnest`), so a batch of 1,000 creates costs a handful of statements, not
 * 1,000 times a dozen. Scoped by workspace_id first, as `RecordRepository`; look-ups of many keys
 * as `UNSEEN_WORKSPACE` says.
 */
@Injectable()
export class RecordBatchRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** The container of each of these record ids (of any container; keyed in lower case), null for ids that are no record of the workspace. */
  async containersOf(workspaceId: string, recordIds: readonly string[]): Promise<Map<string, string | null>> {
    const found = new Map<string, string | null>(recordIds.map((id) => [id.toLowerCase(), null]));
    if (recordIds.length === 0) return found;
    const rows = await this.transactions.query<{ id: string; container_id: string }>(
      `SELECT r.id, r.container_id FROM unnest($2::uuid[]) AS k(id)
         CROSS JOIN LATERAL (SELECT id, container_id FROM records WHERE workspace_id = ${UNSEEN_WORKSPACE} AND id = k.id LIMIT 1) r`,
      [workspaceId, [...found.keys()]],
    );
    for (const row of rows) found.set(row.id, row.container_id);
    return found;
  }

  /**
   * The advisory locks `RecordRepository.lockWriteKeys` takes for one assert, for all the batch's
   * asserts in one statement, in key order (so two batches asserting overlapping keys queue).
   */
  async lockWriteKeys(workspaceId: string, keys: ReadonlyArray<{ scopeId: string; key: string }>): Promise<void> {
    if (keys.length === 0) return;
    const names = [...new Set(keys.map(({ scopeId, key }) => `${workspaceId}:${scopeId}:${key}`))].sort();
    await this.transactions.query(`SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM (SELECT k FROM unnest($1::text[]) k ORDER BY k) locks`, [names]);
  }

  /** Which of these unique values a record holds already, and which record. */
  async holdersOf(workspaceId: string, claims: ReadonlyArray<{ attributeId: string; key: string }>): Promise<Array<{ attributeId: string; key: string; recordId: string }>> {
    if (claims.length === 0) return [];
    const rows = await this.transactions.query<{ attribute_id: string; value_key: string; record_id: string }>(
      `SELECT u.attribute_id, u.value_key, u.record_id
         FROM unnest($2::uuid[], $3::text[]) AS c(attribute_id, value_key)
         CROSS JOIN LATERAL (SELECT attribute_id, value_key, record_id FROM unique_values
                              WHERE workspace_id = ${UNSEEN_WORKSPACE} AND attribute_id = c.attribute_id AND value_key = c.value_key LIMIT 1) u`,
      [workspaceId, claims.map((c) => c.attributeId), claims.map((c) => c.key)],
    );
    return rows.map((row) => ({ attributeId: row.attribute_id, key: row.value_key, recordId: row.record_id }));
  }

  /** Locks records of any container in id order (as `RecordRepository.lockRecordsById`), answering the container of each found. */
  async lockRecords(workspaceId: string, recordIds: readonly string[]): Promise<Map<string, string>> {
    if (recordIds.length === 0) return new Map();
    const rows = await this.transactions.query<{ id: string; container_id: string }>(
      // The nested loop takes the ids in order, so the locks are taken in id order.
      `SELECT r.id, r.container_id FROM (SELECT DISTINCT id FROM unnest($2::uuid[]) AS k(id) ORDER BY id) k
         CROSS JOIN LATERAL (SELECT id, container_id FROM records WHERE workspace_id = ${UNSEEN_WORKSPACE} AND id = k.id LIMIT 1 FOR UPDATE) r`,
      [workspaceId, recordIds],
    );
    return new Map(rows.map((row) => [row.id, row.container_id]));
  }

  /**
   * Inserts new records of a container, their value rows (opened in the order given, which is the
   * order of their ids) and their unique claims, in one statement. A claim another transaction made
   * meanwhile fails it with a unique violation of `unique_values_pkey` (a plain INSERT: ON
   * CONFLICT's speculative insertion costs ~40 % more per claim, for a race that is rare), which the
   * caller's savepoint undoes. Also answers the new records and their values as `findRecordsByIds`
   * and `currentValuesForRead` read them back, built from the rows given and the transaction's time
   * and actor as PostgreSQL spells them (no RETURNING of thousands of rows to aggregate, send and
   * parse): values in the order given, which keeps each record's values of one attribute in id order.
   */
  async insertRecords(
    workspaceId: string,
    containerId: string,
    actor: Actor,
    recordIds: readonly string[],
    values: readonly NewValueRow[],
    claims: readonly UniqueClaim[],
  ): Promise<{ records: RecordRow[]; values: ValueRowWithRecord[] }> {
    const column = <T>(pick: (value: StoredValue) => T | undefined | null) => values.map((row) => pick(row.value) ?? null);
    const json = values.map((row) => (row.value.json ? JSON.stringify(row.value.json) : null));
    const [row] = await this.transactions.query<{ now: string; actor: Actor; version: string }>(
      `WITH recs AS (
         INSERT INTO records (workspace_id, id, container_id, created_by, created_at, updated_at)
         SELECT $1, id, $2, $3::jsonb, now(), now() FROM unnest($4::uuid[]) AS r(id)
         RETURNING version),
       vals AS (
         INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by,
             value_text, value_number, value_bool, value_date, value_timestamp, value_ref, value_ref_type, value_json)
         SELECT $1, v.record_id, v.attribute_id, now(), $3::jsonb, v.t, v.num, v.b, v.d, v.ts, v.ref, v.ref_type, v.j::jsonb
           FROM unnest($5::uuid[], $6::uuid[], $7::text[], $8::numeric[], $9::boolean[], $10::date[], $11::timestamptz[], $12::uuid[], $13::text[], $14::text[])
                WITH ORDINALITY AS v(record_id, attribute_id, t, num, b, d, ts, ref, ref_type, j, n)
          ORDER BY v.n),
       claims AS (
         INSERT INTO unique_values (workspace_id, attribute_id, value_key, record_id)
         SELECT $1, c.attribute_id, c.value_key, c.record_id FROM unnest($15::uuid[], $16::text[], $17::uuid[]) AS c(attribute_id, value_key, record_id))
       SELECT ${isoNanos('now()')} AS now, $3::jsonb AS actor, (SELECT version FROM recs LIMIT 1) AS version`,
      [
        workspaceId,
        containerId,
        JSON.stringify(actor),
        ...[
          recordIds,
          values.map((row) => row.recordId),
          values.map((row) => row.attributeId),
          column((v) => v.text),
          column((v) => v.number),
          column((v) => v.bool),
          column((v) => v.date),
          column((v) => v.timestamp),
          column((v) => v.ref),
          column((v) => v.refType),
          json,
          claims.map((c) => c.attributeId),
          claims.map((c) => c.key),
          claims.map((c) => c.recordId),
        ].map(arrayLiteral),
      ],
    );
    const records = recordIds.map((id) =>
      toRecord({ id, container_id: containerId, parent_record_id: null, created_at: row.now, updated_at: row.now, created_by: row.actor, version: row.version }),
    );
    const activeFrom = new Date(row.now);
    const rows: ValueRowWithRecord[] = [];
    values.forEach(({ recordId, attributeId, value }, i) => {
      rows.push({
        id: '',
        key: '',
        recordId,
        attributeId,
        activeFrom,
        activeUntil: null,
        activeFromText: row.now,
        activeUntilText: null,
        createdBy: row.actor,
        text: value.text ?? null,
        number: value.number ?? null,
        bool: value.bool ?? null,
        date: value.date ?? null,
        // The planned text (microseconds); the codecs answer a timestamp from its JSON.
        timestamp: value.timestamp ?? null,
        // Ids in lower case, as PostgreSQL prints them: the codecs keep them so.
        ref: value.ref ?? null,
        refType: value.refType ?? null,
        json: json[i] === null ? null : asJsonb(JSON.parse(json[i]!) as Record<string, unknown>),
      });
    });
    return { records, values: rows };
  }

  /**
   * Opens values on existing records (mirrored links), in the order given, bumps the versions of
   * the records they change (`times` each; `updated_at` is the transaction's time) and records the
   * events of the change (outbox and audit entries), in one statement. The caller locks the
   * linked records first (`lockRecords`); building the statement before that keeps the work in
   * Node out of the time the locks are held. The bumps find their rows by a probe of the key and
   * update them by their tuple id, which stays the row's own because the row is locked: a
   * join on `workspace_id = $1` would be planned from the workspace's statistics (`UNSEEN_WORKSPACE`).
   */
  linkStatement(workspaceId: string, actor: Actor, values: readonly NewValueRow[], bumps: ReadonlyMap<string, number>, events: readonly DomainEvent[]): PreparedStatement {
    const params: unknown[] = [
      workspaceId,
      JSON.stringify(actor),
      ...[
        values.map((row) => row.recordId),
        values.map((row) => row.attributeId),
        values.map((row) => row.value.ref ?? null),
        values.map((row) => row.value.refType ?? null),
        [...bumps.keys()],
        [...bumps.values()],
      ].map(arrayLiteral),
    ];
    const recorded = events.length > 0 ? `, ${recordedEvents(events, params)}` : '';
    return {
      sql: `WITH opened AS (
         INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_ref, value_ref_type)
         SELECT $1, v.record_id, v.attribute_id, now(), $2::jsonb, v.ref, v.ref_type
           FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::text[]) WITH ORDINALITY AS v(record_id, attribute_id, ref, ref_type, n)
          ORDER BY v.n),
       bumped AS (
         UPDATE records r SET version = r.version + b.n, updated_at = now()
           FROM (SELECT k.id, k.n, found.ctid AS tid FROM unnest($7::uuid[], $8::int[]) AS k(id, n)
                   CROSS JOIN LATERAL (SELECT ctid FROM records WHERE workspace_id = ${UNSEEN_WORKSPACE} AND id = k.id LIMIT 1) found) b
          WHERE r.ctid = b.tid AND r.id = b.id)${recorded}
       SELECT ${events.length > 0 ? OUTBOX_NOTIFY : '1'}`,
      params,
    };
  }

  /** Runs a statement built beforehand (`linkStatement`). */
  async run(statement: PreparedStatement): Promise<void> {
    await this.transactions.query(statement.sql, statement.params);
  }
}

/** A statement built ahead of the moment it runs. */
export interface PreparedStatement {
  readonly sql: string;
  readonly params: unknown[];
}
