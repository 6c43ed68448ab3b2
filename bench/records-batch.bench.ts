/**
 * Issue 30 part 4: importing people (email, name, a company reference) through
 * `POST /v2/objects/people/records/batch` asserts (1,000 per request), side by side in one run with
 * sequential single asserts (`PUT /v2/objects/people/records?matching_attribute=email_addresses`,
 * on a sample, rate extrapolated) and a bare multi-row `INSERT` of the same rows into the same
 * tables (records, record_values, unique_values; 1,000 rows per statement, no events, no mirrored
 * side), the physical limit. Then a record query filtered and sorted on `updated_at` timed at
 * growing sizes of the people object (generated rows, as records-query.bench.ts does).
 *
 *   npm run bench:records-batch                           (BENCH_PEOPLE=100000, BENCH_SINGLE=2000)
 *   BENCH_PEOPLE=5000 BENCH_SINGLE=300 BENCH_SIZES=10000,50000 npm run bench:records-batch   (smoke run)
 */
import { Client } from 'pg';
import { ContainerResolver } from '@workbase/schema';
import { generatePeople } from './records-dataset';
import { appendResults, jsonClient, runBench } from './support';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const SINGLE = Number(process.env.BENCH_SINGLE ?? 2000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 1000);
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);

const person = (prefix: string, i: number, companies: readonly string[]) => ({
  email_addresses: [`${prefix}-${i}@import.example`],
  name: `Person ${prefix} ${i}`,
  company: [{ target_object: 'companies', target_record_id: companies[i % companies.length] }],
});

runBench({ database: 'workbase_bench_records_batch', poolSize: 4 }, async (bench, pool) => {
  const call = jsonClient(bench.baseUrl, bench.token);
  const out = (line: string) => process.stdout.write(`${line}\n`);

  // Companies to reference, made in batches too.
  const companies: string[] = [];
  for (let from = 0; from < COMPANIES; from += BATCH) {
    const operations = Array.from({ length: Math.min(BATCH, COMPANIES - from) }, (_, k) => ({ op: 'create', data: { values: { name: `Company ${from + k}` } } }));
    const res = await call<{ data: Array<{ status: number; data: { id: { record_id: string } } }> }>('POST', '/v2/objects/companies/records/batch', { operations });
    companies.push(...res.data.map((item) => item.data.id.record_id));
  }

  // 1. Sequential single asserts, one request at a time.
  let start = performance.now();
  for (let i = 0; i < SINGLE; i++) await call('PUT', '/v2/objects/people/records?matching_attribute=email_addresses', { data: { values: person('single', i, companies) } });
  const singleRate = SINGLE / ((performance.now() - start) / 1000);
  out(`single asserts: ${SINGLE} in sequence, ${singleRate.toFixed(0)} records/s`);

  // 2. Batch asserts, BATCH per request, CONCURRENCY requests in flight.
  let next = 0;
  let refused = 0;
  start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const from = next;
        next += BATCH;
        if (from >= PEOPLE) return;
        const operations = Array.from({ length: Math.min(BATCH, PEOPLE - from) }, (_, k) => ({ op: 'assert', matching_attribute: 'email_addresses', data: { values: person('batch', from + k, companies) } }));
        const res = await call<{ data: Array<{ status: number }> }>('POST', '/v2/objects/people/records/batch', { operations });
        refused += res.data.filter((item) => item.status !== 200).length;
      }
    }),
  );
  const batchSeconds = (performance.now() - start) / 1000;
  const batchRate = PEOPLE / batchSeconds;
  out(`batch asserts: ${PEOPLE} in ${batchSeconds.toFixed(1)} s, ${batchRate.toFixed(0)} records/s (${refused} refused)`);

  // 3. The bare multi-row INSERT of the same rows into the same tables, 1,000 rows per statement.
  const workspaceId = bench.workspaceId;
  const containers = bench.app.get(ContainerResolver);
  const people = await containers.objectWithAttributes(workspaceId, 'people');
  const attr = (slug: string) => people.attributes.find((a) => a.slug === slug)!.id;
  const companiesId = (await containers.object(workspaceId, 'companies')).id;
  const actor = JSON.stringify({ type: 'system', id: null });
  start = performance.now();
  for (let from = 0; from < PEOPLE; from += BATCH) {
    const to = Math.min(PEOPLE, from + BATCH);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO records (workspace_id, id, container_id, created_by) SELECT $1::uuid, md5('bare-' || i)::uuid, $2::uuid, $3::jsonb FROM generate_series($4::int, $5::int - 1) i`,
        [workspaceId, people.container.id, actor, from, to],
      );
      await client.query(
        `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text, value_json)
         SELECT $1::uuid, md5('bare-' || i)::uuid, $2::uuid, now(), $3::jsonb, 'bare-' || i || '@import.example',
                jsonb_build_object('original_email_address', 'bare-' || i || '@import.example', 'email_address', 'bare-' || i || '@import.example', 'email_domain', 'import.example',
                                   'email_root_domain', 'import.example', 'email_local_specifier', 'bare-' || i)
         FROM generate_series($4::int, $5::int - 1) i
         UNION ALL
         SELECT $1::uuid, md5('bare-' || i)::uuid, $6::uuid, now(), $3::jsonb, 'Person bare ' || i, jsonb_build_object('first_name', 'Person', 'last_name', 'bare ' || i, 'full_name', 'Person bare ' || i)
         FROM generate_series($4::int, $5::int - 1) i`,
        [workspaceId, attr('email_addresses'), actor, from, to, attr('name')],
      );
      await client.query(
        `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_ref, value_ref_type)
         SELECT $1::uuid, md5('bare-' || i)::uuid, $2::uuid, now(), $3::jsonb, ($6::uuid[])[1 + i % array_length($6::uuid[], 1)], $7 FROM generate_series($4::int, $5::int - 1) i`,
        [workspaceId, attr('company'), actor, from, to, companies, companiesId],
      );
      await client.query(
        `INSERT INTO unique_values (workspace_id, attribute_id, value_key, record_id) SELECT $1::uuid, $2::uuid, 'bare-' || i || '@import.example', md5('bare-' || i)::uuid FROM generate_series($3::int, $4::int - 1) i`,
        [workspaceId, attr('email_addresses'), from, to],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }
  const bareRate = PEOPLE / ((performance.now() - start) / 1000);
  out(`bare INSERT: ${bareRate.toFixed(0)} records/s`);

  // 4. A query filtered and sorted on updated_at as the people object grows.
  const pg = new Client({ connectionString: bench.url });
  await pg.connect();
  const query = { filter: { updated_at: { $gte: '2024-01-01T20:00:00Z', $lt: '2024-01-01T20:10:00Z' } }, sorts: [{ attribute: 'updated_at', direction: 'asc' }], limit: 100 };
  const scale: Array<{ size: number; p50: number }> = [];
  const other = await call<{ data: { id: { workspace_id: string } } }>('GET', '/v2/objects/people');
  void other;
  const dataset = await import('./support').then((m) => m.createBenchWorkspace(bench.app, 'scale'));
  const scaleCall = jsonClient(bench.baseUrl, dataset.token);
  const scalePeople = await containers.object(dataset.workspaceId, 'people');
  const scaleCompanies = await containers.object(dataset.workspaceId, 'companies');
  await scaleCall('POST', '/v2/objects/people/attributes', { data: { title: 'Score', api_slug: 'score', type: 'number', is_required: false, is_unique: false, is_multiselect: false, config: {} } });
  const scaleAttr = async (container: string, slug: string) =>
    (await pg.query(`SELECT id FROM attributes WHERE workspace_id = $1 AND container_id = $2 AND api_slug = $3`, [dataset.workspaceId, container, slug])).rows[0].id as string;
  const ids = {
    email: await scaleAttr(scalePeople.id, 'email_addresses'),
    job: await scaleAttr(scalePeople.id, 'job_title'),
    company: await scaleAttr(scalePeople.id, 'company'),
    domains: await scaleAttr(scaleCompanies.id, 'domains'),
    score: await scaleAttr(scalePeople.id, 'score'),
  };
  let loaded = 0;
  for (const size of SIZES) {
    for (let from = loaded; from < size; from += 50_000) await generatePeople(pg, dataset.workspaceId, scalePeople.id, scaleCompanies.id, ids, from, Math.min(size, from + 50_000));
    loaded = size;
    await pg.query('ANALYZE records');
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < 21; i++) {
      const t0 = performance.now();
      rows = (await scaleCall<{ data: unknown[] }>('POST', '/v2/objects/people/records/query', query)).data.length;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    scale.push({ size, p50: times[10] });
    out(`updated_at query at ${size} people: p50 ${times[10].toFixed(1)} ms (${rows} rows)`);
  }
  await pg.end();

  const date = new Date().toISOString().slice(0, 10);
  appendResults([
    '',
    `## Batch imports and updated_at (${date}, bench/records-batch.bench.ts)`,
    '',
    `${PEOPLE} people (email, name, a company reference among ${COMPANIES}) in one run, each figure side by side: batch asserts through ` +
      `\`POST /v2/objects/people/records/batch\` (${BATCH} per request, ${CONCURRENCY} requests in flight, rate limits off), ${SINGLE} sequential single asserts ` +
      '(`PUT …/records?matching_attribute=email_addresses`, rate extrapolated), and a bare multi-row INSERT of the same rows into the same tables.',
    '',
    '| path | records/s | ratio |',
    '|---|---|---|',
    `| batch asserts | ${batchRate.toFixed(0)} | 1 |`,
    `| sequential single asserts | ${singleRate.toFixed(0)} | batch / single = **${(batchRate / singleRate).toFixed(1)}×** |`,
    `| bare multi-row INSERT | ${bareRate.toFixed(0)} | batch / bare = **${(batchRate / bareRate).toFixed(2)}** |`,
    '',
    '`updated_at` filter + sort (`$gte`/`$lt` over ten minutes, ascending, limit 100) as the people object grows:',
    '',
    '| people | p50 ms |',
    '|---|---|',
    ...scale.map((s) => `| ${s.size} | ${s.p50.toFixed(1)} |`),
  ]);
});
