import { Injectable } from '@nestjs/common';
import type { Actor, DomainEvent } from '@workbase/shared/kernel';
import { COLUMN_CAST, OUTBOX_NOTIFY, PRIMARY_COLUMN, recordedEvents, TransactionRunner } from '@workbase/shared/persistence';
import type { AttributeType, StoredValue, StoredValueRow, OptionView, ReadContext, StatusView } from '@workbase/schema';
import { isoNanos } from './sql';

export interface RecordRow {
  readonly id: string;
  readonly containerId: string;
  readonly parentRecordId: string | null;
  readonly createdAt: string;
  readonly createdBy: Actor;
  /** The time of the transaction that last changed a value (or created the record). */
  readonly updatedAt: string;
  readonly version: number;
}

export const recordColumns = (alias: string) =>
  `${alias}.id, ${alias}.container_id, ${alias}.parent_record_id, ${isoNanos(`${alias}.created_at`)} AS created_at, ${alias}.created_by, ${isoNanos(`${alias}.updated_at`)} AS updated_at, ${alias}.version`;
const RECORD_COLUMNS = recordColumns('records');
export const selectValueColumns = (a: string) => `${a}id::text AS id, ${a}record_id, ${a}attribute_id, ${isoNanos(`${a}active_from`)} AS active_from, ${isoNanos(`${a}active_until`)} AS active_until,
  ${a}created_by, ${a}value_text, ${a}value_number::text AS value_number, ${a}value_bool, to_char(${a}value_date, 'YYYY-MM-DD') AS value_date,
  ${a}value_timestamp, ${a}value_ref, ${a}value_ref_type, ${a}value_json`;
const VALUE_COLUMNS = selectValueColumns('');

/**
 * Current values of `v` with what reading them needs, joined on primary keys (at most one row
 * each): the select option or status a value names (of its own attribute) and the slug of the
 * object a record reference targets. `v` must be filtered to current values by the caller.
 */
const READ_VALUE_COLUMNS = `${selectValueColumns('v.')},
  o.title AS option_title, o.is_archived AS option_archived,
  s.title AS status_title, s.is_archived AS status_archived, s.celebration_enabled AS status_celebration, s.target_time_in_status AS status_target,
  ob.api_slug AS ref_object_slug`;
const READ_VALUE_JOINS = `LEFT JOIN select_options o ON o.workspace_id = v.workspace_id AND o.id = v.value_ref AND o.attribute_id = v.attribute_id
  LEFT JOIN statuses s ON s.workspace_id = v.workspace_id AND s.id = v.value_ref AND s.attribute_id = v.attribute_id
  LEFT JOIN objects ob ON ob.workspace_id = v.workspace_id AND ob.id::text = v.value_ref_type`;

export interface RawRecord {
  id: string;
  container_id: string;
  parent_record_id: string | null;
  created_at: string;
  created_by: Actor;
  updated_at: string;
  version: string;
}

export interface RawValue {
  id: string;
  record_id: string;
  attribute_id: string;
  active_from: string;
  active_until: string | null;
  created_by: Actor;
  value_text: string | null;
  value_number: string | null;
  value_bool: boolean | null;
  value_date: string | null;
  value_timestamp: Date | null;
  value_ref: string | null;
  value_ref_type: string | null;
  value_json: Record<string, unknown> | null;
}

interface RawReadValue extends RawValue {
  option_title: string | null;
  option_archived: boolean | null;
  status_title: string | null;
  status_archived: boolean | null;
  status_celebration: boolean | null;
  status_target: string | null;
  ref_object_slug: string | null;
}

/** Current values of some records and the options, statuses and object slugs they name. */
export interface ValuesForRead {
  readonly values: ValueRowWithRecord[];
  readonly context: ReadContext;
}

/** One SELECT of a compiled record query: joins, a WHERE over `r`, an ORDER BY, and their parameters. */
export interface QueryBranch {
  readonly joins: string;
  readonly where: string;
  readonly orderBy: readonly string[];
  readonly params: readonly unknown[];
}

/** The SQL of one page of a query branch (also what benchmarks EXPLAIN). */
export function pageStatement(
  workspaceId: string,
  containerId: string,
  branch: QueryBranch,
  page: { limit: number; offset: number },
  columns = 'r.id',
): { sql: string; params: unknown[] } {
  const params = [...branch.params];
  const ws = params.push(workspaceId);
  const container = params.push(containerId);
  const limit = params.push(page.limit);
  const offset = params.push(page.offset);
  return {
    sql: `SELECT ${columns} FROM records r ${branch.joins}
        WHERE r.workspace_id = $${ws}::uuid AND r.container_id = $${container}::uuid AND ${branch.where}
        ORDER BY ${branch.orderBy.join(', ')}
        LIMIT $${limit} OFFSET $${offset}`,
    params,
  };
}

export interface ValueRowWithRecord extends StoredValueRow {
  readonly recordId: string;
  readonly activeFromText: string;
  readonly activeUntilText: string | null;
}

/**
 * Records and their value history, in SQL: the hot paths of the engine. Every statement is
 * scoped by workspace_id first, matching the primary keys and indexes.
 */
@Injectable()
export class RecordRepository {
  constructor(private readonly transactions: TransactionRunner) {}


  async insertRecord(workspaceId: string, record: { id: string; containerId: string; createdBy: Actor; parentRecordId?: string | null }): Promise<RecordRow> {
    const rows = await this.transactions.query<RawRecord>(
      `INSERT INTO records (workspace_id, id, container_id, parent_record_id, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now()) RETURNING ${RECORD_COLUMNS}`,
      [workspaceId, record.id, record.containerId, record.parentRecordId ?? null, JSON.stringify(record.createdBy)],
    );
    return toRecord(rows[0]);
  }

  /**
   * Inserts a new record and its first values in one statement (the values' foreign key is checked
   * at its end, when the record exists), and answers both as `findRecord` and `currentValues`
   * would read them back: same columns, values in (attribute, id) order.
   */
  async insertRecordWithValues(
    workspaceId: string,
    record: { id: string; containerId: string; createdBy: Actor; parentRecordId?: string | null },
    values: ReadonlyArray<{ readonly attributeId: string; readonly value: StoredValue }>,
    events: readonly DomainEvent[] = [],
  ): Promise<{ record: RecordRow; values: ValueRowWithRecord[] }> {
    const actor = JSON.stringify(record.createdBy);
    const params: unknown[] = [workspaceId, record.id, record.containerId, record.parentRecordId ?? null, actor];
    const insertRecord = `INSERT INTO records (workspace_id, id, container_id, parent_record_id, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now()) RETURNING ${RECORD_COLUMNS}`;
    // The record's own events ride in the same statement (the outbox's INSERT and notification).
    const recorded = events.length > 0 ? `, ${recordedEvents(events, params)}` : '';
    const notified = events.length > 0 ? `, ${OUTBOX_NOTIFY} AS notified` : '';
    if (values.length === 0) {
      const rows = await this.transactions.query<RawRecord>(`WITH rec AS (${insertRecord})${recorded} SELECT rec.*${notified} FROM rec`, params);
      return { record: toRecord(rows[0]), values: [] };
    }
    const tuples = values.map(({ attributeId, value }) => `($1, $2, ${valueTuple(params, attributeId, value)})`);
    const rows = await this.transactions.query<RawValue & { record: RawRecord; sort_id: string }>(
      `WITH rec AS (${insertRecord}),
         vals AS (INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by,
             value_text, value_number, value_bool, value_date, value_timestamp, value_ref, value_ref_type, value_json)
           VALUES ${tuples.join(', ')}
           RETURNING id AS sort_id, ${VALUE_COLUMNS})${recorded}
       SELECT (SELECT row_to_json(rec) FROM rec) AS record, vals.*${notified} FROM vals ORDER BY vals.attribute_id, vals.sort_id`,
      params,
    );
    return { record: toRecord(rows[0].record), values: rows.map(toValue) };
  }

  async findRecord(workspaceId: string, containerId: string, recordId: string): Promise<RecordRow | null> {
    const rows = await this.transactions.query<RawRecord>(`SELECT ${RECORD_COLUMNS} FROM records WHERE workspace_id = $1 AND id = $2 AND container_id = $3`, [workspaceId, recordId, containerId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findRecordById(workspaceId: string, recordId: string): Promise<RecordRow | null> {
    const rows = await this.transactions.query<RawRecord>(`SELECT ${RECORD_COLUMNS} FROM records WHERE workspace_id = $1 AND id = $2`, [workspaceId, recordId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Locks the record for the rest of the transaction, so that concurrent writes serialise. */
  async lockRecord(workspaceId: string, containerId: string, recordId: string, options: { noWait?: boolean } = {}): Promise<RecordRow | null> {
    const rows = await this.transactions.query<RawRecord>(
      `SELECT ${RECORD_COLUMNS} FROM records WHERE workspace_id = $1 AND id = $2 AND container_id = $3 FOR UPDATE${options.noWait ? ' NOWAIT' : ''}`,
      [workspaceId, recordId, containerId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * Locks records of any container, in id order (so that two writers locking overlapping sets
   * queue rather than deadlock among themselves): a relationship write changes the other side.
   */
  async lockRecordsById(workspaceId: string, recordIds: readonly string[]): Promise<void> {
    if (recordIds.length === 0) return;
    await this.transactions.query(`SELECT id FROM records WHERE workspace_id = $1 AND id = ANY ($2::uuid[]) ORDER BY id FOR UPDATE`, [workspaceId, [...new Set(recordIds)]]);
  }

  async findRecordsByIds(workspaceId: string, containerId: string, recordIds: readonly string[]): Promise<RecordRow[]> {
    if (recordIds.length === 0) return [];
    const rows = await this.transactions.query<RawRecord>(
      `SELECT ${RECORD_COLUMNS} FROM records WHERE workspace_id = $1 AND id = ANY ($2::uuid[]) AND container_id = $3`,
      [workspaceId, recordIds, containerId],
    );
    const byId = new Map(rows.map((row) => [row.id, toRecord(row)]));
    return recordIds.map((id) => byId.get(id)).filter((row): row is RecordRow => row !== undefined);
  }

  /**
   * One page of a container's records matching a compiled query. A query of two branches reads
   * the first, then continues in the second where the first ends (the offset into the second is
   * what the first did not cover). The fragments come from the query compilers and reference
   * only bound parameters.
   */
  async selectPages(workspaceId: string, containerId: string, branches: readonly QueryBranch[], page: { limit: number; offset: number }): Promise<RecordRow[]> {
    const rows: RecordRow[] = [];
    let offset = page.offset;
    for (const [i, branch] of branches.entries()) {
      const want = page.limit - rows.length;
      if (want <= 0) break;
      const statement = pageStatement(workspaceId, containerId, branch, { limit: want, offset }, recordColumns('r'));
      const found = (await this.transactions.query<RawRecord>(statement.sql, statement.params)).map(toRecord);
      rows.push(...found);
      if (i === branches.length - 1 || found.length === want) break;
      // The branch ended within or before this page: the next starts at the page's remainder.
      offset = found.length > 0 ? 0 : Math.max(0, offset - (await this.countBranch(workspaceId, containerId, branch)));
    }
    return rows;
  }

  private async countBranch(workspaceId: string, containerId: string, branch: QueryBranch): Promise<number> {
    const params = [...branch.params];
    const ws = params.push(workspaceId);
    const container = params.push(containerId);
    const sql = `SELECT count(*) AS count FROM records r ${branch.joins} WHERE r.workspace_id = $${ws}::uuid AND r.container_id = $${container}::uuid AND ${branch.where}`;
    // Parameters only the ORDER BY uses (secondary sorts) still go to PostgreSQL, which must type
    // them ("could not determine data type of parameter $1", a 500): reference them as text.
    const used = new Set([...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
    const unused = params.map((_, i) => i + 1).filter((n) => !used.has(n));
    const typed = unused.length === 0 ? '' : ` AND (${unused.map((n) => `$${n}::text IS NULL`).join(' OR ')} OR TRUE)`;
    const [{ count }] = await this.transactions.query<{ count: string }>(sql + typed, params);
    return Number(count);
  }

  /** Which of these ids are records of the container. */
  async existingIds(workspaceId: string, containerId: string, recordIds: readonly string[]): Promise<Set<string>> {
    if (recordIds.length === 0) return new Set();
    const rows = await this.transactions.query<{ id: string }>(
      `SELECT id FROM records WHERE workspace_id = $1 AND id = ANY ($2::uuid[]) AND container_id = $3`,
      [workspaceId, recordIds, containerId],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** A value of the record changed in this transaction: a new version, and `updated_at` is the transaction's time. */
  async bumpVersion(workspaceId: string, recordId: string): Promise<void> {
    await this.transactions.query(`UPDATE records SET version = version + 1, updated_at = now() WHERE workspace_id = $1 AND id = $2`, [workspaceId, recordId]);
  }

  /** Deletes every record of a container that is being removed; their values and unique claims cascade. */
  async deleteAllOfContainer(workspaceId: string, containerId: string): Promise<void> {
    await this.transactions.query(`DELETE FROM records WHERE workspace_id = $1 AND container_id = $2`, [workspaceId, containerId]);
  }

  async deleteRecord(workspaceId: string, containerId: string, recordId: string): Promise<boolean> {
    // Wrapped in a SELECT: TypeORM answers a bare DELETE ... RETURNING with [rows, count].
    const rows = await this.transactions.query<{ id: string }>(
      `WITH deleted AS (DELETE FROM records WHERE workspace_id = $1 AND id = $2 AND container_id = $3 RETURNING id) SELECT id FROM deleted`,
      [workspaceId, recordId, containerId],
    );
    return rows.length > 0;
  }

  /** Deletes records of any container by id (a record's entries, which its caller has locked); answers how many went. */
  async deleteRecordsById(workspaceId: string, recordIds: readonly string[]): Promise<number> {
    if (recordIds.length === 0) return 0;
    const rows = await this.transactions.query<{ id: string }>(
      `WITH deleted AS (DELETE FROM records WHERE workspace_id = $1 AND id = ANY ($2::uuid[]) RETURNING id) SELECT id FROM deleted`,
      [workspaceId, recordIds],
    );
    return rows.length;
  }

  /** Locks the list entries whose parent is `parentRecordId`, in id order (as relationship writes lock), with their lists. */
  async lockEntriesOf(workspaceId: string, parentRecordId: string): Promise<Array<{ entryId: string; listId: string; listSlug: string }>> {
    const rows = await this.transactions.query<{ id: string; list_id: string; list_slug: string }>(
      `SELECT r.id, r.container_id AS list_id, l.api_slug AS list_slug
         FROM records r JOIN lists l ON l.workspace_id = r.workspace_id AND l.id = r.container_id
        WHERE r.workspace_id = $1 AND r.parent_record_id = $2
        ORDER BY r.id FOR UPDATE OF r`,
      [workspaceId, parentRecordId],
    );
    return rows.map((row) => ({ entryId: row.id, listId: row.list_id, listSlug: row.list_slug }));
  }

  /** Current values of the records, optionally of some attributes only, in write order. */
  async currentValues(workspaceId: string, recordIds: readonly string[], attributeIds?: readonly string[]): Promise<ValueRowWithRecord[]> {
    if (recordIds.length === 0) return [];
    const rows = await this.transactions.query<RawValue>(
      `SELECT ${VALUE_COLUMNS} FROM record_values
        WHERE workspace_id = $1 AND record_id = ANY ($2::uuid[]) AND active_until IS NULL
          ${attributeIds ? 'AND attribute_id = ANY ($3::uuid[])' : ''}
        ORDER BY record_id, attribute_id, id`,
      attributeIds ? [workspaceId, recordIds, attributeIds] : [workspaceId, recordIds],
    );
    return rows.map(toValue);
  }

  /**
   * `currentValues` of the records (same rows, same order) together with the select options,
   * statuses and object slugs those values name, in one statement.
   */
  async currentValuesForRead(workspaceId: string, recordIds: readonly string[]): Promise<ValuesForRead> {
    if (recordIds.length === 0) return { values: [], context: readContextOf([]) };
    const rows = await this.transactions.query<RawReadValue>(
      `SELECT ${READ_VALUE_COLUMNS} FROM record_values v ${READ_VALUE_JOINS}
        WHERE v.workspace_id = $1 AND v.record_id = ANY ($2::uuid[]) AND v.active_until IS NULL
        ORDER BY v.record_id, v.attribute_id, v.id`,
      [workspaceId, recordIds],
    );
    return { values: rows.map(toValue), context: readContextOf(rows) };
  }

  /**
   * `findRecord` and `currentValuesForRead` of that record in one statement; null when the
   * container has no such record.
   */
  async findRecordForRead(workspaceId: string, containerId: string, recordId: string): Promise<{ record: RecordRow; read: ValuesForRead } | null> {
    const rows = await this.transactions.query<Partial<RawReadValue> & { record: RawRecord }>(
      `SELECT row_to_json(rec) AS record, ${READ_VALUE_COLUMNS}
         FROM (SELECT ${RECORD_COLUMNS} FROM records WHERE workspace_id = $1 AND id = $2 AND container_id = $3) rec
         LEFT JOIN record_values v ON v.workspace_id = $1 AND v.record_id = rec.id AND v.active_until IS NULL
         ${READ_VALUE_JOINS}
        ORDER BY v.attribute_id, v.id`,
      [workspaceId, recordId, containerId],
    );
    if (rows.length === 0) return null;
    const values = rows.filter((row): row is RawReadValue & { record: RawRecord } => row.id !== null && row.id !== undefined);
    return { record: toRecord(rows[0].record), read: { values: values.map(toValue), context: readContextOf(values) } };
  }

  /** Every value an attribute of a record has had, oldest first. */
  async valueHistory(workspaceId: string, recordId: string, attributeId: string, page: { limit?: number; offset?: number } = {}): Promise<ValueRowWithRecord[]> {
    const rows = await this.transactions.query<RawValue>(
      `SELECT ${VALUE_COLUMNS} FROM record_values
        WHERE workspace_id = $1 AND record_id = $2 AND attribute_id = $3
        ORDER BY active_from, id LIMIT $4 OFFSET $5`,
      [workspaceId, recordId, attributeId, page.limit ?? null, page.offset ?? 0],
    );
    return rows.map(toValue);
  }

  /** A deleted record is no longer linked from anywhere (its history stays). */
  async closeReferencesTo(workspaceId: string, recordIds: readonly string[]): Promise<void> {
    if (recordIds.length === 0) return;
    await this.transactions.query(
      `UPDATE record_values SET active_until = now()
        WHERE workspace_id = $1 AND value_ref = ANY ($2::uuid[]) AND active_until IS NULL
          AND attribute_id IN (SELECT id FROM attributes WHERE workspace_id = $1 AND type = 'record-reference')`,
      [workspaceId, recordIds],
    );
  }

  async closeValues(workspaceId: string, valueIds: readonly string[]): Promise<void> {
    if (valueIds.length === 0) return;
    await this.transactions.query(`UPDATE record_values SET active_until = now() WHERE workspace_id = $1 AND id = ANY ($2::bigint[]) AND active_until IS NULL`, [workspaceId, valueIds]);
  }

  async openValues(workspaceId: string, recordId: string, attributeId: string, values: readonly StoredValue[], actor: Actor): Promise<void> {
    if (values.length === 0) return;
    const params: unknown[] = [workspaceId, recordId, attributeId, JSON.stringify(actor)];
    const tuples = values.map((value) => `($1, $2, $3, now(), $4::jsonb, ${valueColumns(params, value)})`);
    await this.transactions.query(
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by,
         value_text, value_number, value_bool, value_date, value_timestamp, value_ref, value_ref_type, value_json)
       VALUES ${tuples.join(', ')}`,
      params,
    );
  }

  /**
   * Claims a unique value for a record. Returns the record that already holds it, if another
   * does; the primary key makes two concurrent claims of one value impossible.
   */
  async claimUniqueValue(workspaceId: string, attributeId: string, key: string, recordId: string): Promise<string | null> {
    const inserted = await this.transactions.query<{ record_id: string }>(
      `INSERT INTO unique_values (workspace_id, attribute_id, value_key, record_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING record_id`,
      [workspaceId, attributeId, key, recordId],
    );
    if (inserted.length > 0) return null;
    const holder = await this.transactions.query<{ record_id: string }>(
      `SELECT record_id FROM unique_values WHERE workspace_id = $1 AND attribute_id = $2 AND value_key = $3`,
      [workspaceId, attributeId, key],
    );
    const holderId = holder[0]?.record_id ?? null;
    return holderId === recordId ? null : holderId;
  }

  async releaseUniqueValues(workspaceId: string, attributeId: string, keys: readonly string[], recordId: string): Promise<void> {
    if (keys.length === 0) return;
    await this.transactions.query(
      `DELETE FROM unique_values WHERE workspace_id = $1 AND attribute_id = $2 AND value_key = ANY ($3::text[]) AND record_id = $4`,
      [workspaceId, attributeId, keys, recordId],
    );
  }

  /** Records of a container holding one of these keys of a unique attribute. */
  /**
   * Claims the current values of an attribute that becomes unique, one row per value key; nothing
   * is claimed (`duplicates`) when two records hold the same value.
   */
  async claimAllUniqueValues(workspaceId: string, attributeId: string): Promise<'claimed' | 'duplicates'> {
    const duplicates = await this.transactions.query<{ n: string }>(
      `SELECT count(*) AS n FROM (
         SELECT lower(coalesce(value_text, value_number::text)) FROM record_values
          WHERE workspace_id = $1 AND attribute_id = $2 AND active_until IS NULL
          GROUP BY 1 HAVING count(DISTINCT record_id) > 1) d`,
      [workspaceId, attributeId],
    );
    if (Number(duplicates[0].n) > 0) return 'duplicates';
    await this.transactions.query(
      `INSERT INTO unique_values (workspace_id, attribute_id, value_key, record_id)
       SELECT DISTINCT ON (k) workspace_id, attribute_id, k, record_id FROM (
         SELECT workspace_id, attribute_id, record_id,
                CASE WHEN value_number IS NOT NULL THEN trim_scale(value_number)::text ELSE value_text END AS k
           FROM record_values WHERE workspace_id = $1 AND attribute_id = $2 AND active_until IS NULL) v
       ON CONFLICT DO NOTHING`,
      [workspaceId, attributeId],
    );
    return 'claimed';
  }

  /** Drops every claim of an attribute that is no longer unique. */
  async releaseAllUniqueValues(workspaceId: string, attributeId: string): Promise<void> {
    await this.transactions.query(`DELETE FROM unique_values WHERE workspace_id = $1 AND attribute_id = $2`, [workspaceId, attributeId]);
  }

  /**
   * Records of a container whose current value of an attribute equals `value` in its type's
   * primary column (on that column's partial index), in id order, at most `limit`.
   */
  async findByCurrentValue(
    workspaceId: string,
    containerId: string,
    attribute: { readonly id: string; readonly type: AttributeType },
    value: StoredValue,
    limit: number,
  ): Promise<string[]> {
    const column = PRIMARY_COLUMN[attribute.type];
    const rows = await this.transactions.query<{ record_id: string }>(
      `SELECT DISTINCT v.record_id FROM record_values v
         JOIN records r ON r.workspace_id = v.workspace_id AND r.id = v.record_id AND r.container_id = $4
        WHERE v.workspace_id = $1 AND v.attribute_id = $2 AND v.active_until IS NULL AND v.${column} = $3::${COLUMN_CAST[column]}
        ORDER BY v.record_id LIMIT ${Number(limit)}`,
      [workspaceId, attribute.id, primaryParameter(attribute.type, value), containerId],
    );
    return rows.map((row) => row.record_id);
  }

  /**
   * Serialises, until the transaction ends, the writers of one value of a unique attribute (an
   * assert of that value) or of one parent's entry in a list: a transaction-scoped advisory lock
   * on the key, taken in the order given.
   */
  async lockWriteKeys(workspaceId: string, scopeId: string, keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      await this.transactions.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${workspaceId}:${scopeId}:${key}`]);
    }
  }

  /** The entries of a list whose parent is the record, at most `limit` of them. */
  async findEntriesOfParent(workspaceId: string, listId: string, parentRecordId: string, limit: number): Promise<string[]> {
    const rows = await this.transactions.query<{ id: string }>(
      `SELECT id FROM records WHERE workspace_id = $1 AND container_id = $2 AND parent_record_id = $3 LIMIT ${Number(limit)}`,
      [workspaceId, listId, parentRecordId],
    );
    return rows.map((row) => row.id);
  }

  /** Drops every unique claim the records hold (records being merged away give theirs up). */
  async releaseUniqueClaimsOf(workspaceId: string, recordIds: readonly string[]): Promise<void> {
    await this.transactions.query(`DELETE FROM unique_values WHERE workspace_id = $1 AND record_id = ANY ($2::uuid[])`, [workspaceId, recordIds]);
  }

  /** The other records whose current record-reference values name one of these records. */
  async referrersOf(workspaceId: string, recordIds: readonly string[]): Promise<string[]> {
    const rows = await this.transactions.query<{ record_id: string }>(
      `SELECT DISTINCT record_id FROM record_values
        WHERE workspace_id = $1 AND value_ref = ANY ($2::uuid[]) AND active_until IS NULL AND record_id <> ALL ($2::uuid[])
          AND attribute_id IN (SELECT id FROM attributes WHERE workspace_id = $1 AND type = 'record-reference')
        ORDER BY record_id`,
      [workspaceId, recordIds],
    );
    return rows.map((row) => row.record_id);
  }

  /**
   * Rewrites other records' current references to any of `from` as references to `into`: each
   * such value is closed (its history stays) and one value naming `into` is opened per record and
   * attribute, so a record that named both originals names the new record once. Answers the
   * records changed.
   */
  async repointReferences(workspaceId: string, from: readonly string[], into: string, actor: Actor): Promise<string[]> {
    const rows = await this.transactions.query<{ record_id: string }>(
      `WITH closed AS (
         UPDATE record_values SET active_until = now()
          WHERE workspace_id = $1 AND value_ref = ANY ($2::uuid[]) AND active_until IS NULL AND record_id <> ALL ($2::uuid[])
            AND attribute_id IN (SELECT id FROM attributes WHERE workspace_id = $1 AND type = 'record-reference')
          RETURNING record_id, attribute_id, value_ref_type),
       opened AS (
         INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_ref, value_ref_type)
         SELECT DISTINCT ON (record_id, attribute_id) $1::uuid, record_id, attribute_id, now(), $4::jsonb, $3::uuid, value_ref_type FROM closed
          ORDER BY record_id, attribute_id
         RETURNING record_id)
       SELECT DISTINCT record_id FROM opened ORDER BY record_id`,
      [workspaceId, from, into, JSON.stringify(actor)],
    );
    return rows.map((row) => row.record_id);
  }

  /**
   * Closes current values naming `recordId` of each `sides[].attributeId`, held by records not in
   * that side's `keep`, in one statement: the reverse side of a relationship follows the forward
   * side a merge chose. Answers the records whose values were closed.
   */
  async closeReferencesExcept(workspaceId: string, recordId: string, sides: ReadonlyArray<{ attributeId: string; keep: readonly string[] }>): Promise<string[]> {
    if (sides.length === 0) return [];
    const rows = await this.transactions.query<{ record_id: string }>(
      `WITH closed AS (
         UPDATE record_values v SET active_until = now()
          WHERE v.workspace_id = $1 AND v.value_ref = $2 AND v.active_until IS NULL
            AND EXISTS (SELECT 1 FROM jsonb_to_recordset($3::jsonb) AS side(attribute_id uuid, keep uuid[])
                         WHERE side.attribute_id = v.attribute_id AND v.record_id <> ALL (side.keep))
          RETURNING v.record_id)
       SELECT DISTINCT record_id FROM closed`,
      [workspaceId, recordId, JSON.stringify(sides.map((side) => ({ attribute_id: side.attributeId, keep: side.keep })))],
    );
    return rows.map((row) => row.record_id);
  }

  /** Moves the list entries of any of `from` to the parent `into`, keeping their ids and values. */
  async moveEntries(workspaceId: string, from: readonly string[], into: string): Promise<void> {
    await this.transactions.query(`UPDATE records SET parent_record_id = $3, version = version + 1 WHERE workspace_id = $1 AND parent_record_id = ANY ($2::uuid[])`, [
      workspaceId,
      from,
      into,
    ]);
  }

  /** Bumps the version of each record (changed by another record's write). */
  async bumpVersions(workspaceId: string, recordIds: readonly string[]): Promise<void> {
    if (recordIds.length === 0) return;
    await this.transactions.query(`UPDATE records SET version = version + 1 WHERE workspace_id = $1 AND id = ANY ($2::uuid[])`, [workspaceId, recordIds]);
  }

  /** Deletes records of a container; their values and unique claims cascade. Answers how many went. */
  async deleteRecords(workspaceId: string, containerId: string, recordIds: readonly string[]): Promise<number> {
    const rows = await this.transactions.query<{ id: string }>(
      `WITH deleted AS (DELETE FROM records WHERE workspace_id = $1 AND id = ANY ($2::uuid[]) AND container_id = $3 RETURNING id) SELECT id FROM deleted`,
      [workspaceId, recordIds, containerId],
    );
    return rows.length;
  }

  async findByUniqueKeys(workspaceId: string, attributeId: string, keys: readonly string[]): Promise<Array<{ key: string; recordId: string }>> {
    if (keys.length === 0) return [];
    const rows = await this.transactions.query<{ value_key: string; record_id: string }>(
      `SELECT value_key, record_id FROM unique_values WHERE workspace_id = $1 AND attribute_id = $2 AND value_key = ANY ($3::text[])`,
      [workspaceId, attributeId, keys],
    );
    return rows.map((row) => ({ key: row.value_key, recordId: row.record_id }));
  }
}

/** Binds a value's typed columns (value_text … value_json) and answers their placeholders. */
function valueColumns(params: unknown[], value: StoredValue): string {
  const base = params.length;
  params.push(
    value.text ?? null,
    value.number ?? null,
    value.bool ?? null,
    value.date ?? null,
    value.timestamp ?? null,
    value.ref ?? null,
    value.refType ?? null,
    value.json ? JSON.stringify(value.json) : null,
  );
  const p = (i: number) => `$${base + i}`;
  return `${p(1)}, ${p(2)}::numeric, ${p(3)}::boolean, ${p(4)}::date, ${p(5)}::timestamptz, ${p(6)}::uuid, ${p(7)}, ${p(8)}::jsonb`;
}

/** `attribute_id, active_from, created_by, <typed columns>` of one value of a new record (actor at $5). */
function valueTuple(params: unknown[], attributeId: string, value: StoredValue): string {
  params.push(attributeId);
  const attribute = `$${params.length}::uuid`;
  return `${attribute}, now(), $5::jsonb, ${valueColumns(params, value)}`;
}

export function toRecord(row: RawRecord): RecordRow {
  return {
    id: row.id,
    containerId: row.container_id,
    parentRecordId: row.parent_record_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
    version: Number(row.version),
  };
}

function readContextOf(rows: readonly RawReadValue[]): ReadContext {
  const options = new Map<string, OptionView>();
  const statuses = new Map<string, StatusView>();
  const slugs = new Map<string, string>();
  for (const row of rows) {
    if (row.option_title !== null) options.set(row.value_ref!, { id: row.value_ref!, title: row.option_title, isArchived: row.option_archived! });
    if (row.status_title !== null) {
      statuses.set(row.value_ref!, { id: row.value_ref!, title: row.status_title, isArchived: row.status_archived!, celebrationEnabled: row.status_celebration!, targetTimeInStatus: row.status_target });
    }
    if (row.ref_object_slug !== null) slugs.set(row.value_ref_type!, row.ref_object_slug);
  }
  return { option: (id) => options.get(id), status: (id) => statuses.get(id), objectSlug: (id) => slugs.get(id) };
}

export function toValue(row: RawValue): ValueRowWithRecord {
  return {
    id: row.id,
    key: '',
    recordId: row.record_id,
    attributeId: row.attribute_id,
    activeFrom: new Date(row.active_from),
    activeUntil: row.active_until ? new Date(row.active_until) : null,
    activeFromText: row.active_from,
    activeUntilText: row.active_until,
    createdBy: row.created_by,
    text: row.value_text,
    number: row.value_number,
    bool: row.value_bool,
    date: row.value_date,
    timestamp: row.value_timestamp ? row.value_timestamp.toISOString() : null,
    ref: row.value_ref,
    refType: row.value_ref_type,
    json: row.value_json,
  };
}

/** The parameter that compares equal to a stored value in its type's primary column. */
export function primaryParameter(type: AttributeType, value: StoredValue): unknown {
  switch (PRIMARY_COLUMN[type]) {
    case 'value_number':
      return value.number;
    case 'value_bool':
      return value.bool;
    case 'value_date':
      return value.date;
    case 'value_timestamp':
      return value.timestamp;
    case 'value_ref':
      return value.ref;
    default:
      return value.text;
  }
}
