import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ClientBase, Pool } from 'pg';
import { ContainerResolver } from '@workbase/schema';

/** Attribute ids the generated dataset writes. */
export interface DatasetAttributes {
  email: string;
  job: string;
  company: string;
  domains: string;
  score: string;
}

/** The people and companies objects of the bench workspace, with the dataset's attributes (the `score` number attribute is created here, for range filters and sorts). */
export async function prepareDataset(
  app: NestExpressApplication,
  db: ClientBase | Pool,
  workspaceId: string,
  call: (method: string, route: string, body?: unknown) => Promise<unknown>,
): Promise<{ people: Awaited<ReturnType<ContainerResolver['object']>>; peopleId: string; companiesId: string; ids: DatasetAttributes }> {
  const people = await app.get(ContainerResolver).object(workspaceId, 'people');
  const companies = await app.get(ContainerResolver).object(workspaceId, 'companies');
  await call('POST', '/v2/objects/people/attributes', { data: { title: 'Score', api_slug: 'score', type: 'number', is_required: false, is_unique: false, is_multiselect: false, config: {} } });
  const attr = async (container: string, slug: string) =>
    ((await db.query(`SELECT id FROM attributes WHERE workspace_id = $1 AND container_id = $2 AND api_slug = $3`, [workspaceId, container, slug])).rows[0] as { id: string }).id;
  const ids: DatasetAttributes = {
    email: await attr(people.id, 'email_addresses'),
    job: await attr(people.id, 'job_title'),
    company: await attr(people.id, 'company'),
    domains: await attr(companies.id, 'domains'),
    score: await attr(people.id, 'score'),
  };
  return { people, peopleId: people.id, companiesId: companies.id, ids };
}

/**
 * Inserts people [from, to) and their companies (one per 100 people, at least 10) with set-based
 * SQL, writing the same rows the API would: a record row, current values in their typed columns,
 * and the unique keys of unique attributes.
 */
export async function generatePeople(pg: ClientBase, workspaceId: string, peopleId: string, companiesId: string, ids: DatasetAttributes, from: number, to: number): Promise<void> {
  const companiesFrom = Math.max(10, Math.floor(from / 100));
  const companiesTo = Math.max(10, Math.floor(to / 100));
  const actor = JSON.stringify({ type: 'system', id: null });
  await pg.query('BEGIN');
  if (companiesTo > (from === 0 ? 0 : companiesFrom)) {
    const start = from === 0 ? 0 : companiesFrom;
    // created_at spreads over time like real data (one second apart), so default-order pages and
    // created_at filters see distinct values.
    await insertKeyedRecords(pg, workspaceId, actor, {
      prefix: 'company-',
      containerId: companiesId,
      attributeId: ids.domains,
      from: start,
      to: companiesTo,
      key: `'company-' || i || '.com'`,
      json: `jsonb_build_object('domain', 'company-' || i || '.com', 'root_domain', 'company-' || i || '.com')`,
    });
  }
  await insertKeyedRecords(pg, workspaceId, actor, {
    prefix: 'person-',
    containerId: peopleId,
    attributeId: ids.email,
    from,
    to,
    key: `'person-' || i || '@example.com'`,
    json: `jsonb_build_object('original_email_address', 'person-' || i || '@example.com', 'email_address', 'person-' || i || '@example.com',
                              'email_domain', 'example.com', 'email_root_domain', 'example.com', 'email_local_specifier', 'person-' || i)`,
  });
  await pg.query(
    `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_number)
     SELECT $1, md5('person-' || i)::uuid, $2, now(), $3::jsonb, (i::bigint * 7919) % 10000 FROM generate_series($4::int, $5::int - 1) i`,
    [workspaceId, ids.score, actor, from, to],
  );
  await pg.query(
    `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text)
     SELECT $1, md5('person-' || i)::uuid, $2, now(), $3::jsonb, (ARRAY['Engineer','Designer','Founder','Analyst'])[1 + i % 4] FROM generate_series($4::int, $5::int - 1) i`,
    [workspaceId, ids.job, actor, from, to],
  );
  await pg.query(
    `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_ref, value_ref_type)
     SELECT $1, md5('person-' || i)::uuid, $2, now(), $3::jsonb, md5('company-' || (i % $6::int))::uuid, $4 FROM generate_series($5::int, $7::int - 1) i`,
    [workspaceId, ids.company, actor, companiesId, from, companiesTo, to],
  );
  await pg.query('COMMIT');
}

/**
 * Records `md5(prefix || i)` for i in [from, to) of a container, created one second apart (and last
 * updated up to a day later, in another order), each with
 * its value of a unique text attribute (`key` and `json` are SQL over `i`) and that value's unique key.
 */
async function insertKeyedRecords(
  pg: ClientBase,
  workspaceId: string,
  actor: string,
  batch: { prefix: string; containerId: string; attributeId: string; from: number; to: number; key: string; json: string },
): Promise<void> {
  const { prefix, containerId, attributeId, from, to, key, json } = batch;
  await pg.query(
    `INSERT INTO records (workspace_id, id, container_id, created_by, created_at, updated_at)
     SELECT $1, md5($6::text || i)::uuid, $2, $3::jsonb, timestamptz '2024-01-01' + make_interval(secs => i),
       timestamptz '2024-01-01' + make_interval(secs => i + (i::bigint * 7907) % 86400) FROM generate_series($4::int, $5::int - 1) i`,
    [workspaceId, containerId, actor, from, to, prefix],
  );
  await pg.query(
    `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text, value_json)
     SELECT $1, md5($6::text || i)::uuid, $2, now(), $3::jsonb, ${key}, ${json} FROM generate_series($4::int, $5::int - 1) i`,
    [workspaceId, attributeId, actor, from, to, prefix],
  );
  await pg.query(
    `INSERT INTO unique_values (workspace_id, attribute_id, value_key, record_id)
     SELECT $1, $2, ${key}, md5($5::text || i)::uuid FROM generate_series($3::int, $4::int - 1) i`,
    [workspaceId, attributeId, from, to, prefix],
  );
}
