/**
 * Record search (POST /v2/objects/records/search) on BENCH_PEOPLE people (default 100,000) and one
 * company per 100 people, against its own SQL run bare, in one run on one database.
 *
 * Data, inserted in bulk as the API stores it: people with a personal name (2,500 distinct
 * first/last combinations, so common names match thousands of people), a unique email address
 * and a phone number; companies with a name and a domain. ANALYZE before timing.
 *
 * Queries (each BENCH_ROUNDS times, default 30, after one warm-up, sequentially), over
 * `objects: ["people", "companies"]`, limit 25:
 * - a full email address (one exact match)
 * - a common first name (thousands of name prefix matches)
 * - a last name (word prefix inside thousands of names)
 * - a substring common to every email (`example`: the worst case the candidate cap bounds)
 * - phone digits
 * - a company domain
 * - nothing matches
 * "API" is the whole request over HTTP; "direct" runs the search store's SQL through a bare
 * `pg` pool (same statement, same parameters), so the ratio is the service's overhead.
 *
 *   npm run bench:search                         (embedded PostgreSQL; or DATABASE_URL)
 *   BENCH_PEOPLE=2000 BENCH_ROUNDS=3 BENCH_NO_WRITE=1 npm run bench:search     (smoke)
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import type { TransactionRunner } from '@workbase/shared/persistence';
import { RecordSearchRepository } from '../libs/records/src/infrastructure/record-search.repository';
import { appendResults, type BenchEnvironment, jsonClient, runBench, sequentialLatency } from './support';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Dennis', 'Linus', 'Guido', 'Bjarne', 'James', 'Anders', 'Niklaus', 'John', 'Frances', 'Radia', 'Leslie', 'Tony', 'Robin', 'Shafi', 'Silvio', 'Whitfield', 'Martin', 'Adele', 'Jean', 'Karen', 'Sophie', 'Mary', 'Hedy', 'Katherine', 'Dorothy', 'Evelyn', 'Betty', 'Kathleen', 'Marlyn', 'Ruth', 'Irma', 'Susan', 'Lynn', 'Annie', 'Joan', 'Carol', 'Elizabeth', 'Cynthia', 'Lillian', 'Ida', 'Mildred', 'Nancy'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Ritchie', 'Torvalds', 'Rossum', 'Stroustrup', 'Gosling', 'Hejlsberg', 'Wirth', 'McCarthy', 'Allen', 'Perlman', 'Lamport', 'Hoare', 'Milner', 'Goldwasser', 'Micali', 'Diffie', 'Hellman', 'Goldberg', 'Sammet', 'Jones', 'Wilson', 'Keller', 'Lamarr', 'Johnson', 'Vaughan', 'Boyd', 'Holberton', 'Antonelli', 'Wescoff', 'Teitelbaum', 'Bergerson', 'Kare', 'Conway', 'Easley', 'Clarke', 'Shaw', 'Feinler', 'Dwork', 'Estrin', 'Rhodes', 'Koss', 'Leveson'];

interface Ids {
  peopleId: string;
  companiesId: string;
  attributes: Map<string, string>;
}

async function seed(pool: Pool, workspaceId: string, ids: Ids, from: number, to: number): Promise<void> {
  const actor = JSON.stringify({ type: 'system', id: null });
  const a = (key: string) => ids.attributes.get(key)!;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO records (workspace_id, id, container_id, created_by, created_at)
       SELECT $1, md5('person-' || i)::uuid, $2, $3::jsonb, timestamptz '2024-01-01' + make_interval(secs => i) FROM generate_series($4::int, $5::int - 1) i`,
      [workspaceId, ids.peopleId, actor, from, to],
    );
    await client.query(
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text, value_json)
       SELECT $1, md5('person-' || i)::uuid, $2, now(), $3::jsonb, f || ' ' || l, jsonb_build_object('first_name', f, 'last_name', l, 'full_name', f || ' ' || l)
         FROM generate_series($4::int, $5::int - 1) i, LATERAL (SELECT ($6::text[])[1 + i % 50] AS f, ($7::text[])[1 + (i / 50) % 50] AS l) n`,
      [workspaceId, a('people.name'), actor, from, to, FIRST, LAST],
    );
    await client.query(
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text, value_json)
       SELECT $1, md5('person-' || i)::uuid, $2, now(), $3::jsonb, e, jsonb_build_object('original_email_address', e, 'email_address', e, 'email_domain', 'example.com',
              'email_root_domain', 'example.com', 'email_local_specifier', split_part(e, '@', 1))
         FROM generate_series($4::int, $5::int - 1) i, LATERAL (SELECT lower(($6::text[])[1 + i % 50] || '.' || ($7::text[])[1 + (i / 50) % 50]) || '.' || i || '@example.com' AS e) x`,
      [workspaceId, a('people.email_addresses'), actor, from, to, FIRST, LAST],
    );
    await client.query(
      `INSERT INTO unique_values (workspace_id, attribute_id, value_key, record_id)
       SELECT $1, $2, lower(($5::text[])[1 + i % 50] || '.' || ($6::text[])[1 + (i / 50) % 50]) || '.' || i || '@example.com', md5('person-' || i)::uuid
         FROM generate_series($3::int, $4::int - 1) i`,
      [workspaceId, a('people.email_addresses'), from, to, FIRST, LAST],
    );
    await client.query(
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text, value_json)
       SELECT $1, md5('person-' || i)::uuid, $2, now(), $3::jsonb, p, jsonb_build_object('original_phone_number', p, 'country_code', 'US', 'phone_number', p)
         FROM generate_series($4::int, $5::int - 1) i, LATERAL (SELECT '+1415' || lpad(i::text, 7, '0') AS p) x`,
      [workspaceId, a('people.phone_numbers'), actor, from, to],
    );
    const companiesFrom = Math.floor(from / 100);
    const companiesTo = Math.floor(to / 100);
    if (companiesTo > companiesFrom) {
      await client.query(
        `INSERT INTO records (workspace_id, id, container_id, created_by, created_at)
         SELECT $1, md5('company-' || i)::uuid, $2, $3::jsonb, timestamptz '2024-01-01' + make_interval(secs => i) FROM generate_series($4::int, $5::int - 1) i`,
        [workspaceId, ids.companiesId, actor, companiesFrom, companiesTo],
      );
      await client.query(
        `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text)
         SELECT $1, md5('company-' || i)::uuid, $2, now(), $3::jsonb, 'Company ' || i || ' Holdings' FROM generate_series($4::int, $5::int - 1) i`,
        [workspaceId, a('companies.name'), actor, companiesFrom, companiesTo],
      );
      await client.query(
        `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text, value_json)
         SELECT $1, md5('company-' || i)::uuid, $2, now(), $3::jsonb, 'company-' || i || '.com', jsonb_build_object('domain', 'company-' || i || '.com', 'root_domain', 'company-' || i || '.com')
           FROM generate_series($4::int, $5::int - 1) i`,
        [workspaceId, a('companies.domains'), actor, companiesFrom, companiesTo],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function run(bench: BenchEnvironment, pool: Pool) {
  const call = jsonClient(bench.baseUrl, bench.token);
  const started = performance.now();
  const objects = (await pool.query(`SELECT api_slug, id FROM objects WHERE workspace_id = $1 AND api_slug IN ('people', 'companies')`, [bench.workspaceId])).rows as Array<{ api_slug: string; id: string }>;
  const peopleId = objects.find((o) => o.api_slug === 'people')!.id;
  const companiesId = objects.find((o) => o.api_slug === 'companies')!.id;
  const attributes = new Map<string, string>(
    (
      await pool.query(
        `SELECT CASE WHEN container_id = $2 THEN 'people.' ELSE 'companies.' END || api_slug AS key, id, type FROM attributes WHERE workspace_id = $1 AND container_id IN ($2, $3)`,
        [bench.workspaceId, peopleId, companiesId],
      )
    ).rows.map((r: { key: string; id: string }) => [r.key, r.id]),
  );
  const ids: Ids = { peopleId, companiesId, attributes };
  for (let from = 0; from < PEOPLE; from += 20_000) await seed(pool, bench.workspaceId, ids, from, Math.min(PEOPLE, from + 20_000));
  await pool.query('ANALYZE');
  console.log(`seeded ${PEOPLE} people and ${Math.floor(PEOPLE / 100)} companies in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The store's own statement through a bare pool: the baseline without HTTP, auth and reading.
  const bareRunner = { manager: () => ({ query: (sql: string, params: unknown[]) => pool.query(sql, params).then((r) => r.rows) }) } as unknown as TransactionRunner;
  const bare = new RecordSearchRepository(bareRunner);
  const searchableAttributes = async () => (
    await pool.query(
      `SELECT id, CASE WHEN api_slug = 'name' THEN 'name' WHEN type = 'email-address' THEN 'email' WHEN type = 'domain' THEN 'domain' ELSE 'phone' END AS kind
         FROM attributes WHERE workspace_id = $1 AND container_id IN ($2, $3) AND NOT is_archived
          AND ((api_slug = 'name' AND type IN ('text', 'personal-name')) OR type IN ('email-address', 'domain', 'phone-number'))`,
      [bench.workspaceId, peopleId, companiesId],
    )
  ).rows as Array<{ id: string; kind: 'name' | 'email' | 'domain' | 'phone' }>;
  const searchable = await searchableAttributes();
  if (process.env.BENCH_EXPLAIN) {
    // Prints each query's plan once (BENCH_EXPLAIN=1), to check the indexes serve it.
    const explaining = { manager: () => ({ query: async (sql: string, params: unknown[]) => {
      console.log((await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
      return [];
    } }) } as unknown as TransactionRunner;
    const explainer = new RecordSearchRepository(explaining);
    for (const query of ['grace', 'example', 'zzqx', 'company-19.com']) await explainer.search(bench.workspaceId, searchable, query, 25);
  }

  const n = Math.min(PEOPLE - 1, 4321);
  const email = `${FIRST[n % 50].toLowerCase()}.${LAST[Math.floor(n / 50) % 50].toLowerCase()}.${n}@example.com`;
  const queries: Array<[string, string]> = [
    ['full email address', email],
    ['common first name', 'grace'],
    ['last name (word prefix)', 'hopper'],
    ['substring of every email', 'example'],
    ['phone digits', `415 ${String(n).padStart(7, '0').slice(0, 3)} ${String(n).padStart(7, '0').slice(3)}`],
    ['company domain', `company-${Math.floor(n / 100)}.com`],
    ['no match', 'zzqx'],
  ];
  const rows: string[] = [];
  const table: string[][] = [];
  const loadBefore = loadavg()[0];
  for (const [label, query] of queries) {
    const viaApi = await sequentialLatency(ROUNDS, async () => {
      const res = await call<{ data: unknown[] }>('POST', '/v2/objects/records/search', { query, objects: ['people', 'companies'], limit: 25, request_as: { type: 'workspace' } });
      return res.data.length;
    });
    const direct = await sequentialLatency(ROUNDS, async () => (await bare.search(bench.workspaceId, searchable, query, 25)).length);
    if (viaApi.rows !== direct.rows) throw new Error(`${label}: the API found ${viaApi.rows} records, the bare statement ${direct.rows}`);
    table.push([label, query, String(viaApi.rows), viaApi.p50.toFixed(1), viaApi.p95.toFixed(1), direct.p50.toFixed(1), direct.p95.toFixed(1), (viaApi.p50 / direct.p50).toFixed(1)]);
  }
  const worstP95 = Math.max(...table.map((r) => Number(r[4])));
  rows.push(
    '',
    `## Record search (${new Date().toISOString().slice(0, 10)}, bench/search.bench.ts)`,
    '',
    `${PEOPLE.toLocaleString('en-US')} people (personal name, email, phone) and ${Math.floor(PEOPLE / 100).toLocaleString('en-US')} companies (name, domain); ` +
      `objects people + companies, limit 25; ${ROUNDS} sequential requests per query after a warm-up; ${cpus().length} cores shared with other work (noisy: compare the ratio; ` +
      `1-minute load average ${loadBefore.toFixed(1)} before the timed part, ${loadavg()[0].toFixed(1)} after). ` +
      '"direct" is the search store\'s own statement through a bare `pg` pool.',
    '',
    '| query | text | results | API p50 / p95 ms | direct p50 / p95 ms | API / direct (p50) |',
    '|---|---|---|---|---|---|',
    ...table.map((r) => `| ${r[0]} | \`${r[1]}\` | ${r[2]} | ${r[3]} / ${r[4]} | ${r[5]} / ${r[6]} | ${r[7]}x |`),
    '',
    `Worst API p95: ${worstP95.toFixed(1)} ms (target < 50 ms).`,
  );
  console.log(rows.join('\n'));
  appendResults(rows);
}

runBench({ database: 'bench_search' }, run);
