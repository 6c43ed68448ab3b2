/**
 * Issue 30 part 4: importing people (email, name, a company reference) through
 * `POST /v2/objects/people/records/batch` asserts (1,000 per request), side by side in one run with
 * sequential single asserts (`PUT /v2/objects/people/records?matching_attribute=email_addresses`,
 * on a sample, rate extrapolated) and a bare multi-row `INSERT` of the same rows into the same
 * tables (records, record_values, unique_values; 1,000 rows per statement, no events, no mirrored
 * side), the physical limit: run with as many transactions in flight as the import has requests,
 * interleaved with the import in BENCH_ROUNDS rounds (5), and once one at a time (the baseline of the
 * sessions before 2026-11-28 evening, which flattered the ratio). A second bare baseline writes every
 * row the import leaves (also the companies' mirrored links and version bumps, the two events and
 * the two audit entries per person, each the cheapest way): what PostgreSQL alone needs for the
 * import's data, which says how much of the import's time is the service. Then a record query filtered and
 * sorted on `updated_at` timed at growing sizes of the people object (generated rows, as
 * records-query.bench.ts does).
 *
 * The service runs in a process of its own (bench/service-process.ts), as it is deployed: the bench's
 * client (building 1,000 operations, reading 1,000 records back) does not share its event loop.
 * BENCH_IN_PROCESS=1 serves the imports from the bench's own process instead (the earlier set-up).
 * The CPU time the service process, PostgreSQL's processes and the bench's own process (the client
 * and the audit sealer) spend during the batch import is printed per 1,000 records, to say which of
 * them limits it. BENCH_CPU_PROF=<dir> profiles the service;
 * BENCH_PG_STATEMENTS=1 prints the import's top statements (pg_stat_statements); BENCH_PG_SETTINGS='{"shared_buffers":"1GB"}'
 * passes settings to the embedded cluster (a 1 GB shared_buffers moved the import by ~4 %, within the noise).
 *
 *   npm run bench:records-batch                           (BENCH_PEOPLE=100000, BENCH_SINGLE=2000)
 *   BENCH_PEOPLE=5000 BENCH_SINGLE=300 BENCH_SIZES=10000,50000 npm run bench:records-batch   (smoke run)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { SealAuditEntriesUseCase } from '@workbase/audit';
import { ContainerResolver } from '@workbase/schema';
import { generatePeople } from './records-dataset';
import { profileTop, startServiceProcess } from './service-process';
import { appendResults, jsonClient, runBench } from './support';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const SINGLE = Number(process.env.BENCH_SINGLE ?? 2000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 1000);
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const IN_PROCESS = Boolean(process.env.BENCH_IN_PROCESS);
const CPU_PROF = process.env.BENCH_CPU_PROF;

/** Runs `work` over [from, to) in chunks of BATCH, `inFlight` chunks at a time, each taken in order as one ends. */
async function inChunks(from: number, to: number, inFlight: number, work: (from: number, to: number) => Promise<void>): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let start = next; start < to; start = next) {
        next += BATCH;
        await work(start, Math.min(to, start + BATCH));
      }
    }),
  );
}

/** CPU seconds (user + system) a process has used so far, from /proc; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The pids of every `postgres` process on the machine (the bench's cluster: the only one while it runs). */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
}

/** CPU seconds of the postgres processes, counting those that end between two readings by remembering their last. */
function postgresCpu(): { read(): number } {
  const last = new Map<number, number>();
  const read = () => {
    for (const pid of postgresPids()) last.set(pid, Math.max(last.get(pid) ?? 0, cpuSeconds(pid)));
    return [...last.values()].reduce((a, b) => a + b, 0);
  };
  return { read };
}

const person = (prefix: string, i: number, companies: readonly string[]) => ({
  email_addresses: [`${prefix}-${i}@import.example`],
  name: `Person ${prefix} ${i}`,
  company: [{ target_object: 'companies', target_record_id: companies[i % companies.length] }],
});

/** BENCH_PG_STATEMENTS=1: the embedded cluster loads pg_stat_statements, and the import's top statements by time are printed. */
const PG_STATEMENTS = Boolean(process.env.BENCH_PG_STATEMENTS);

runBench({ database: 'workbase_bench_records_batch', poolSize: 4, settings: { ...(PG_STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } : {}), ...JSON.parse(process.env.BENCH_PG_SETTINGS ?? '{}') } }, async (bench, pool) => {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  // The imports' service: a process of its own (its own workspace and token), or the bench's app.
  const service = IN_PROCESS ? null : await startServiceProcess(bench.url, {}, { cpuProfDir: CPU_PROF });
  const served = service ?? { baseUrl: bench.baseUrl, token: bench.token, workspaceId: bench.workspaceId, pid: process.pid };
  out(`service: ${service ? `its own process (${service.mode}), pid ${service.pid}` : 'in the bench process'}; node ${process.version}`);
  const call = jsonClient(served.baseUrl, served.token);

  // Companies to reference, made in batches too.
  const companies: string[] = [];
  for (let from = 0; from < COMPANIES; from += BATCH) {
    const operations = Array.from({ length: Math.min(BATCH, COMPANIES - from) }, (_, k) => ({ op: 'create', data: { values: { name: `Company ${from + k}` } } }));
    const res = await call<{ data: Array<{ status: number; data: { id: { record_id: string } } }> }>('POST', '/v2/objects/companies/records/batch', { operations });
    companies.push(...res.data.map((item) => item.data.id.record_id));
  }

  // 1. Sequential single asserts, one request at a time.
  const start = performance.now();
  for (let i = 0; i < SINGLE; i++) await call('PUT', '/v2/objects/people/records?matching_attribute=email_addresses', { data: { values: person('single', i, companies) } });
  const singleRate = SINGLE / ((performance.now() - start) / 1000);
  out(`single asserts: ${SINGLE} in sequence, ${singleRate.toFixed(0)} records/s`);

  // 2 and 3, interleaved: batch asserts (BATCH per request, CONCURRENCY requests in flight) and the
  // bare multi-row INSERT of the same rows into the same tables (1,000 rows per statement, as many
  // transactions in flight), in ROUNDS rounds of PEOPLE / ROUNDS each, alternating which goes first,
  // so that both see the machine in the same state (a 2-core VM's speed drifts by 20-30 % over minutes)
  // and the same table sizes. An import round ends when the audit entries it wrote are sealed: the
  // sealer's work is part of what the import costs.
  const workspaceId = served.workspaceId;
  const containers = bench.app.get(ContainerResolver);
  const people = await containers.objectWithAttributes(workspaceId, 'people');
  const attr = (slug: string) => people.attributes.find((a) => a.slug === slug)!.id;
  const companiesObject = await containers.objectWithAttributes(workspaceId, 'companies');
  const companiesId = companiesObject.container.id;
  const actor = JSON.stringify({ type: 'system', id: null });

  let refused = 0;
  if (PG_STATEMENTS) {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await pool.query('SELECT pg_stat_statements_reset()');
  }
  const pgCpu = postgresCpu();
  const sampler = setInterval(() => pgCpu.read(), 200);
  // The round's remaining entries are sealed at once (not at the sealers' next tick, up to 500 ms of
  // idle waiting); while a ticking sealer holds the lock, this one finds nothing and tries again.
  const sealing = bench.app.get(SealAuditEntriesUseCase);
  const untilSealed = async () => {
    const deadline = Date.now() + 120_000;
    while ((await pool.query<{ pending: boolean }>('SELECT EXISTS (SELECT 1 FROM audit_pending) AS pending')).rows[0].pending) {
      if (Date.now() > deadline) throw new Error('the audit sealer did not catch up within 2 minutes');
      if ((await sealing.sealPending()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const importRound = async (from: number, to: number) => {
    await inChunks(from, to, CONCURRENCY, async (a, b) => {
      const operations = Array.from({ length: b - a }, (_, k) => ({ op: 'assert', matching_attribute: 'email_addresses', data: { values: person('batch', a + k, companies) } }));
      const res = await call<{ data: Array<{ status: number }> }>('POST', '/v2/objects/people/records/batch', { operations });
      refused += res.data.filter((item) => item.status !== 200).length;
    });
    await untilSealed();
  };
  // What the import leaves beyond the people's own rows, for the second bare baseline: the company's
  // mirrored `team` link, its version bump, the two events and the two audit entries per person, the
  // audit entries shaped as the import's (its actor, read back from the first import round).
  const teamId = companiesObject.attributes.find((a) => a.slug === 'team')!.id;
  await pool.query('CREATE SEQUENCE IF NOT EXISTS bench_audit_numbers START 1000000000000');
  let auditActor: string | null = null;
  const importedAuditActor = async () =>
    (auditActor ??= JSON.stringify((await pool.query<{ actor: unknown }>('SELECT actor FROM audit_log WHERE workspace_id = $1 LIMIT 1', [workspaceId])).rows[0]?.actor ?? { type: 'api-token' }));
  /**
   * The bare multi-row INSERT of a chunk's people rows (records, email and name values, company
   * references, email claims), in one transaction; with `everyRow`, also every other row the import
   * leaves for them, each written the cheapest way: the companies (locked in id order first, as the
   * import locks them), their mirrored links and version bumps, the outbox events and the audit
   * entries straight into `audit_log` with their chain fields (no pending table, no sealer, no hashing).
   */
  const bareRound = (prefix: string, inFlight: number, everyRow = false) => (from: number, to: number) =>
    inChunks(from, to, inFlight, async (a, b) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO records (workspace_id, id, container_id, created_by) SELECT $1::uuid, md5('${prefix}' || i)::uuid, $2::uuid, $3::jsonb FROM generate_series($4::int, $5::int - 1) i`,
          [workspaceId, people.container.id, actor, a, b],
        );
        await client.query(
          `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text, value_json)
           SELECT $1::uuid, md5('${prefix}' || i)::uuid, $2::uuid, now(), $3::jsonb, '${prefix}' || i || '@import.example',
                  jsonb_build_object('original_email_address', '${prefix}' || i || '@import.example', 'email_address', '${prefix}' || i || '@import.example', 'email_domain', 'import.example',
                                     'email_root_domain', 'import.example', 'email_local_specifier', '${prefix}' || i)
           FROM generate_series($4::int, $5::int - 1) i
           UNION ALL
           SELECT $1::uuid, md5('${prefix}' || i)::uuid, $6::uuid, now(), $3::jsonb, 'Person bare ' || i, jsonb_build_object('first_name', 'Person', 'last_name', 'bare ' || i, 'full_name', 'Person bare ' || i)
           FROM generate_series($4::int, $5::int - 1) i`,
          [workspaceId, attr('email_addresses'), actor, a, b, attr('name')],
        );
        await client.query(
          `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_ref, value_ref_type)
           SELECT $1::uuid, md5('${prefix}' || i)::uuid, $2::uuid, now(), $3::jsonb, ($6::uuid[])[1 + i % array_length($6::uuid[], 1)], $7 FROM generate_series($4::int, $5::int - 1) i`,
          [workspaceId, attr('company'), actor, a, b, companies, companiesId],
        );
        await client.query(
          `INSERT INTO unique_values (workspace_id, attribute_id, value_key, record_id) SELECT $1::uuid, $2::uuid, '${prefix}' || i || '@import.example', md5('${prefix}' || i)::uuid FROM generate_series($3::int, $4::int - 1) i`,
          [workspaceId, attr('email_addresses'), a, b],
        );
        if (everyRow) {
          const company = `($4::uuid[])[1 + i % array_length($4::uuid[], 1)]`;
          const chunk = `generate_series($2::int, $3::int - 1) i`;
          // Each person's two events (and audit entries): the company's update, the person's creation.
          const events = `CROSS JOIN LATERAL (VALUES
                 ('record.updated', jsonb_build_object('workspace_id', $1::uuid, 'object_id', $7::uuid, 'record_id', ${company}, 'attribute_id', $5::uuid)),
                 ('record.created', jsonb_build_object('workspace_id', $1::uuid, 'object_id', $8::uuid, 'record_id', md5('${prefix}' || i)::uuid))) AS e(type, id)`;
          await client.query(
            `SELECT 1 FROM records WHERE workspace_id = $1::uuid AND id IN (SELECT DISTINCT ${company} FROM ${chunk}) ORDER BY id FOR UPDATE`,
            [workspaceId, a, b, companies],
          );
          await client.query(
            `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_ref, value_ref_type)
             SELECT $1::uuid, ${company}, $5::uuid, now(), $6::jsonb, md5('${prefix}' || i)::uuid, $7 FROM ${chunk}`,
            [workspaceId, a, b, companies, teamId, actor, people.container.id],
          );
          await client.query(
            `UPDATE records r SET version = r.version + c.n, updated_at = now()
               FROM (SELECT ${company} AS id, count(*) AS n FROM ${chunk} GROUP BY 1) c WHERE r.workspace_id = $1::uuid AND r.id = c.id`,
            [workspaceId, a, b, companies],
          );
          await client.query(
            `INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor)
             SELECT $1::uuid, e.type, e.id, $6::jsonb FROM ${chunk} ${events}`,
            [workspaceId, a, b, companies, teamId, actor, companiesId, people.container.id],
          );
          await client.query(
            `INSERT INTO audit_log (entry_no, workspace_id, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, content_hash, seq, prev_hash, hash)
             SELECT n.no, $1::uuid, md5('${prefix}' || n.no)::uuid, now(), $6::jsonb, $6::jsonb ->> 'id', 'bare', n.action, 'record', n.target ->> 'record_id', n.target,
                    md5(n.action || n.no) || md5(n.no::text), n.no, md5(n.no::text) || md5(n.action), md5(n.no || n.action) || md5(n.action || n.no)
               FROM (SELECT nextval('bench_audit_numbers') AS no, e.type AS action, e.id AS target FROM ${chunk} ${events}) n`,
            [workspaceId, a, b, companies, teamId, await importedAuditActor(), companiesId, people.container.id],
          );
        }
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    });
  /** Runs `work` and answers its wall seconds and the CPU seconds the service process and PostgreSQL spent meanwhile. */
  const measured = async (work: () => Promise<void>) => {
    const before = { service: cpuSeconds(served.pid), postgres: pgCpu.read(), client: cpuSeconds(process.pid), at: performance.now() };
    await work();
    return {
      seconds: (performance.now() - before.at) / 1000,
      service: cpuSeconds(served.pid) - before.service,
      postgres: pgCpu.read() - before.postgres,
      client: cpuSeconds(process.pid) - before.client,
    };
  };
  type Measure = Awaited<ReturnType<typeof measured>>;
  type Round = { batch: Measure; bare: Measure; everyRow: Measure };
  const rounds: Round[] = [];
  const perRound = Math.ceil(PEOPLE / ROUNDS);
  for (let round = 0, from = 0; from < PEOPLE; round++, from += perRound) {
    const to = Math.min(PEOPLE, from + perRound);
    const batch = () => measured(() => importRound(from, to));
    const bare = () => measured(() => bareRound('bare-', CONCURRENCY)(from, to));
    const everyRow = () => measured(() => bareRound('every-', CONCURRENCY, true)(from, to));
    const result: Round =
      round % 2 === 0
        ? { batch: await batch(), bare: await bare(), everyRow: await everyRow() }
        : { everyRow: await everyRow(), bare: await bare(), batch: await batch() };
    rounds.push(result);
    const rate = (m: Measure) => ((to - from) / m.seconds).toFixed(0);
    out(
      `round ${round + 1}: ${to - from} people; batch asserts ${rate(result.batch)}/s, bare INSERT ${rate(result.bare)}/s (ratio ${(result.bare.seconds / result.batch.seconds).toFixed(2)}), ` +
        `bare INSERT of every row ${rate(result.everyRow)}/s (ratio ${(result.everyRow.seconds / result.batch.seconds).toFixed(2)})`,
    );
  }
  clearInterval(sampler);
  const total = (pick: (round: Round) => number) => rounds.reduce((sum, round) => sum + pick(round), 0);
  const batchSeconds = total((r) => r.batch.seconds);
  const batchRate = PEOPLE / batchSeconds;
  const bareRate = PEOPLE / total((r) => r.bare.seconds);
  const everyRowRate = PEOPLE / total((r) => r.everyRow.seconds);
  const roundRatios = rounds.map((r) => r.bare.seconds / r.batch.seconds).sort((a, b) => a - b);
  const everyRowRatios = rounds.map((r) => r.everyRow.seconds / r.batch.seconds).sort((a, b) => a - b);
  const medianRatio = roundRatios[Math.floor(roundRatios.length / 2)];
  const perThousand = (seconds: number) => ((seconds / PEOPLE) * 1000 * 1000).toFixed(0);
  const cpu = { service: total((r) => r.batch.service), postgres: total((r) => r.batch.postgres), client: total((r) => r.batch.client) };
  out(`batch asserts: ${PEOPLE} in ${batchSeconds.toFixed(1)} s, ${batchRate.toFixed(0)} records/s (${refused} refused)`);
  out(
    `CPU during the batch import, per 1,000 records: service process ${perThousand(cpu.service)} ms${service ? '' : ' (with the bench client in it)'}, ` +
      `postgres ${perThousand(cpu.postgres)} ms, the bench process (client and sealer) ${perThousand(cpu.client)} ms; wall ${perThousand(batchSeconds)} ms`,
  );
  out(`bare INSERT (${CONCURRENCY} in flight): ${bareRate.toFixed(0)} records/s; postgres CPU per 1,000 records ${perThousand(total((r) => r.bare.postgres))} ms`);
  out(`batch / bare: ${(batchRate / bareRate).toFixed(2)} over all rounds; per round ${roundRatios.map((r) => r.toFixed(2)).join(', ')} (median ${medianRatio.toFixed(2)})`);
  out(`bare INSERT of every row the import leaves (${CONCURRENCY} in flight): ${everyRowRate.toFixed(0)} records/s; postgres CPU per 1,000 records ${perThousand(total((r) => r.everyRow.postgres))} ms`);
  out(`batch / bare of every row: ${(batchRate / everyRowRate).toFixed(2)} over all rounds; per round ${everyRowRatios.map((r) => r.toFixed(2)).join(', ')}`);

  if (PG_STATEMENTS) {
    const top = await pool.query<{ ms: string; calls: string; rows: string; query: string }>(
      `SELECT round(total_exec_time)::text AS ms, calls::text, rows::text, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query
         FROM pg_stat_statements WHERE query NOT LIKE '%generate_series%' ORDER BY total_exec_time DESC LIMIT 15`,
    );
    out(['', 'top statements of the import by execution time (pg_stat_statements, the bare rounds left out):', ...top.rows.map((r) => `${r.ms} ms, ${r.calls} calls, ${r.rows} rows: ${r.query}`)].join('\n'));
  }
  if (service) {
    await service.close();
    if (CPU_PROF) out(['', 'service CPU profile, top self time:', ...profileTop(CPU_PROF, 25)].join('\n'));
  }

  // The earlier sessions' baseline, for the record: the bare INSERT one transaction at a time (one
  // round's worth of rows), which uses one core of two and so flattered the ratio.
  const sequentialSeconds = (await measured(() => bareRound('bare1-', 1)(0, perRound))).seconds;
  const bareSequentialRate = perRound / sequentialSeconds;
  out(`bare INSERT (1 in flight): ${bareSequentialRate.toFixed(0)} records/s`);

  // 4. A query filtered and sorted on updated_at as the people object grows.
  const pg = new Client({ connectionString: bench.url });
  // A failure below closes the cluster under this client: its error is that failure's, not its own.
  pg.on('error', () => undefined);
  await pg.connect();
  const query = { filter: { updated_at: { $gte: '2024-01-01T20:00:00Z', $lt: '2024-01-01T20:10:00Z' } }, sorts: [{ attribute: 'updated_at', direction: 'asc' }], limit: 100 };
  const scale: Array<{ size: number; p50: number }> = [];
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
      `\`POST /v2/objects/people/records/batch\` (${BATCH} per request, ${CONCURRENCY} requests in flight, rate limits off, the service ${service ? 'in a process of its own' : 'in the bench process'}, Node ${process.version}), ${SINGLE} sequential single asserts ` +
      '(`PUT …/records?matching_attribute=email_addresses`, rate extrapolated), and a bare multi-row INSERT of the same rows into the same tables, ' +
      `interleaved with the import in ${rounds.length} rounds (alternating which goes first; an import round ends when its audit entries are sealed).`,
    '',
    `CPU per 1,000 records during the import: the service process ${perThousand(cpu.service)} ms, PostgreSQL ${perThousand(cpu.postgres)} ms, ` +
      `the bench process (the client and the audit sealer) ${perThousand(cpu.client)} ms (wall ${perThousand(batchSeconds)} ms, 2 cores). ` +
      `The bare INSERT of every row: PostgreSQL ${perThousand(total((r) => r.everyRow.postgres))} ms.`,
    '',
    '| path | records/s | ratio |',
    '|---|---|---|',
    `| batch asserts | ${batchRate.toFixed(0)} | 1 |`,
    `| sequential single asserts | ${singleRate.toFixed(0)} | batch / single = **${(batchRate / singleRate).toFixed(1)}×** |`,
    `| bare multi-row INSERT of the people's own rows, ${CONCURRENCY} in flight | ${bareRate.toFixed(0)} | batch / bare = **${(batchRate / bareRate).toFixed(2)}** (per round ${roundRatios.map((r) => r.toFixed(2)).join(', ')}) |`,
    `| bare multi-row INSERT, 1 in flight (${perRound} rows) | ${bareSequentialRate.toFixed(0)} | batch / bare = ${(batchRate / bareSequentialRate).toFixed(2)} |`,
    `| bare multi-row INSERT of every row the import leaves (+ mirrored links, company bumps, events, audit entries), ${CONCURRENCY} in flight: the physical limit of its data | ${everyRowRate.toFixed(0)} | batch / every row = ${(batchRate / everyRowRate).toFixed(2)} (per round ${everyRowRatios.map((r) => r.toFixed(2)).join(', ')}) |`,
    '',
    '`updated_at` filter + sort (`$gte`/`$lt` over ten minutes, ascending, limit 100) as the people object grows:',
    '',
    '| people | p50 ms |',
    '|---|---|',
    ...scale.map((s) => `| ${s.size} | ${s.p50.toFixed(1)} |`),
  ]);
});
