/**
 * EXPLAIN (ANALYZE, BUFFERS) of the compiled SQL of record query shapes on a generated dataset,
 * to check that every filter and sort runs on indexes. The cluster and data are kept in
 * EXPLAIN_DIR between runs (generated once; new migrations are applied on each run).
 *
 *   EXPLAIN_SIZE=200000 npm run bench:records:explain
 *   npm run bench:records:explain -- '{"filter":{"job_title":{"$contains":"gin"}}}'   (ad-hoc shape)
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { CreateWorkspaceUseCase } from '@workbase/access';
import { AttributeCatalog } from '@workbase/schema';
// White-box: the bench runs the engine's compiled statements directly.
import { ContainerResolver } from '@workbase/schema';
import { RecordQueryService } from '../libs/records/src/application/query/record-query.service';
import { pageStatement } from '../libs/records/src/infrastructure/record.repository';
import { loadConfig } from '@workbase/shared/config';
import { createLogger } from '@workbase/shared/http';
import { ensureDatabase, runMigrations, startEmbeddedPostgres, withDatabase } from '@workbase/shared/persistence';
import { createApp } from '../apps/api/src/app.factory';
import { generatePeople } from './records-dataset';

const SIZE = Number(process.env.EXPLAIN_SIZE ?? 200_000);
const DIR = process.env.EXPLAIN_DIR ?? path.join(tmpdir(), `workbase-explain-${SIZE}`);

async function main() {
  const fresh = !existsSync(path.join(DIR, 'pg'));
  const cluster = await startEmbeddedPostgres({ dataDir: DIR, settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', shared_buffers: '256MB', work_mem: '16MB' } });
  await ensureDatabase(cluster.url, 'workbase_explain');
  const url = withDatabase(cluster.url, 'workbase_explain');
  await runMigrations(url);
  const config = loadConfig({ ...process.env, DATABASE_URL: url, RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'warn', RUN_WORKER: 'false' });
  const app = await createApp(config, url, createLogger('warn'));
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    const existing = await pg.query(`SELECT id FROM workspaces WHERE slug = 'explain'`);
    const workspaceId: string = existing.rows[0]?.id ?? (await app.get(CreateWorkspaceUseCase).execute({ name: 'Explain', slug: 'explain', adminEmail: 'explain@example.com' })).workspaceId;
    const containers = app.get(ContainerResolver);
    const people = await containers.object(workspaceId, 'people');
    const companies = await containers.object(workspaceId, 'companies');
    const attr = async (container: string, slug: string) =>
      (await pg.query(`SELECT id FROM attributes WHERE workspace_id = $1 AND container_id = $2 AND api_slug = $3`, [workspaceId, container, slug])).rows[0]?.id as string | undefined;
    if (!(await attr(people.id, 'score'))) {
      await app.get(AttributeCatalog).create(people, { title: 'Score', apiSlug: 'score', type: 'number', description: null, isRequired: false, isUnique: false, isMultiselect: false, config: {} }, { type: 'system', id: null });
    }
    const ids = {
      email: (await attr(people.id, 'email_addresses'))!,
      job: (await attr(people.id, 'job_title'))!,
      company: (await attr(people.id, 'company'))!,
      domains: (await attr(companies.id, 'domains'))!,
      score: (await attr(people.id, 'score'))!,
    };
    const have = Number((await pg.query(`SELECT count(*) FROM records WHERE workspace_id = $1 AND container_id = $2`, [workspaceId, people.id])).rows[0].count);
    if (have < SIZE) {
      console.log(`generating people ${have}..${SIZE}${fresh ? ' (new cluster)' : ''}`);
      await generatePeople(pg, workspaceId, people.id, companies.id, ids, have, SIZE);
    }
    await pg.query('ANALYZE');
    const companiesCount = Math.max(10, Math.floor(SIZE / 100));
    const someone = md5Uuid(`person-${Math.floor(SIZE / 3)}`);
    const shapes: Array<[string, Record<string, unknown>]> = process.argv[2]
      ? [['ad hoc', JSON.parse(process.argv[2]) as Record<string, unknown>]]
      : [
          ['default order, first page', { limit: 50 }],
          ['selective: email equals', { filter: { email_addresses: `person-${Math.floor(SIZE / 2)}@example.com` } }],
          ['email $starts_with', { filter: { email_addresses: { email_address: { $starts_with: `person-${Math.floor(SIZE / 2)}` } } }, limit: 50 }],
          ['range + sort: score in [5000,5100), desc, limit 50', { filter: { score: { $gte: 5000, $lt: 5100 } }, sorts: [{ direction: 'desc', attribute: 'score' }], limit: 50 }],
          ['sort only: score asc, limit 50', { sorts: [{ direction: 'asc', attribute: 'score' }], limit: 50 }],
          ['path: company domain equals', { filter: { path: [['people', 'company'], ['companies', 'domains']], constraints: { domain: `company-${Math.floor(companiesCount / 2)}.com` } }, limit: 500 }],
          ['reference: company = id', { filter: { company: { target_object: 'companies', target_record_id: md5Uuid(`company-${Math.floor(companiesCount / 3)}`) } } }],
          ['record_id $in', { filter: { record_id: { $in: [someone] } } }],
          ['text $eq (common value) + sort email, limit 50', { filter: { job_title: 'Founder' }, sorts: [{ direction: 'asc', attribute: 'email_addresses' }], limit: 50 }],
          ['$or of two emails', { filter: { $or: [{ email_addresses: 'person-7@example.com' }, { email_addresses: 'person-8@example.com' }] } }],
          ['$not: job_title Engineer, limit 50', { filter: { $not: { job_title: 'Engineer' } }, limit: 50 }],
          ['created_at range, limit 50', { filter: { created_at: { $gte: '2024-01-02T00:00:00Z' } }, limit: 50 }],
        ];
    for (const [name, body] of shapes) {
      const compiled = await app.get(RecordQueryService).compile(people, body);
      for (const [b, branch] of compiled.branches.entries()) {
        const { sql, params } = pageStatement(workspaceId, people.id, branch, { limit: (body.limit as number | undefined) ?? 500, offset: 0 });
        const plan = (await pg.query(`EXPLAIN (ANALYZE, BUFFERS${process.env.EXPLAIN_COSTS ? '' : ', COSTS OFF'}) ${sql}`, params)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']);
        const label = compiled.branches.length > 1 ? ` — branch ${b + 1} of ${compiled.branches.length}` : '';
        console.log(`\n### ${name}${label} (${SIZE} people)\n${process.env.EXPLAIN_SQL ? `${sql}\n` : ''}${plan.join('\n')}`);
      }
    }
  } finally {
    await pg.end();
    await app.close();
    await cluster.stop();
  }
}

function md5Uuid(text: string): string {
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
