import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { CreateMemberUseCase, IssueTokenUseCase, RevokeTokenUseCase } from '@workbase/access';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { MIGRATIONS } from '@workbase/shared/persistence';
import { FAST_WEBHOOK_ENV, waitFor } from '../e2e/webhooks.helpers';
import { freePort, killService, type ServiceProcess, spawnService, untilReady } from '../support/processes';
import { within } from '../support/timing';
import { workspaceFixtures } from './support/fixtures';
import { type Pg15Cluster, startPg15 } from './support/pg15';
import { type PgBouncer, type PoolMode, startPgBouncer } from './support/pgbouncer';

const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCIM_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** The start lock DeliveryQueue.start takes (withStartLock: hashtext of this). */
const QUEUE_START_LOCK = 'pgboss.webhook-delivery';
const SILENT_CHANNEL = 'has not received its own notification';

/**
 * Workbase behind Debian's PgBouncer with a stock configuration, in transaction and in session
 * mode: two APIs and two workers connect through it, as most managed PostgreSQL offerings are
 * reached. In transaction mode the second API and worker also have DATABASE_DIRECT_URL (a session
 * that bypasses the pooler), the first ones not: both must hold every promise, the first by
 * bypassing its caches (its notifications cannot arrive), the second with them.
 */
describe('behind PgBouncer', () => {
  let cluster: Pg15Cluster;

  beforeAll(async () => {
    cluster = await startPg15();
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  describe.each<[PoolMode]>([['transaction'], ['session']])('in %s mode', (mode) => {
    const database = `workbase_${mode}`;
    let bouncer: PgBouncer;
    let direct: Client;
    let fixtures: INestApplication;
    let receiver: Server;
    let receiverUrl: string;
    const received: Array<{ webhookId: string; eventType: string; recordId: string }> = [];
    const apis: ServiceProcess[] = [];
    const workers: ServiceProcess[] = [];
    const extra: ServiceProcess[] = [];
    const bases: string[] = [];
    let workspaceId: string;
    let token: string;
    let env: (index: number, port: number) => Record<string, string>;

    const auth = (bearer = token) => ({ Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' });
    const send = (index: number, method: string, path: string, body?: unknown, bearer?: string) =>
      fetch(`${bases[index % 2]}${path}`, { method, headers: auth(bearer), body: body === undefined ? undefined : JSON.stringify(body) });

    beforeAll(async () => {
      const admin = new Client({ connectionString: cluster.url() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`); // empty: the processes migrate it
      await admin.end();
      direct = new Client({ connectionString: cluster.url(database) });
      await direct.connect();
      // Session mode holds a server connection per client connection: the pool is sized for every
      // process's pools and listeners (README, Connection budgets). Transaction mode keeps the default.
      bouncer = await startPgBouncer({ mode, serverPort: cluster.port, database, user: 'postgres', password: cluster.password, poolSize: mode === 'session' ? 60 : 20 });

      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { webhook_id: string; events: Array<{ event_type: string; id: { record_id: string } }> };
          for (const event of body.events) received.push({ webhookId: body.webhook_id, eventType: event.event_type, recordId: event.id.record_id });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

      const cursorSecret = randomBytes(24).toString('hex');
      env = (index, port) => ({
        ...FAST_WEBHOOK_ENV,
        DATABASE_URL: bouncer.url(),
        ...(mode === 'transaction' && index === 1 ? { DATABASE_DIRECT_URL: cluster.url(database) } : {}),
        PORT: String(port),
        BASE_URL: `http://127.0.0.1:${port}`,
        CURSOR_SECRET: cursorSecret,
        LOG_LEVEL: 'info',
        RUN_WORKER: 'false',
        RATE_LIMIT_ENABLED: 'false',
        SEED_DEMO_WORKSPACE: 'false',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        DB_POOL_SIZE: '3',
        SQL_POOL_SIZE: '2',
      });
      const ports = [await freePort(), await freePort()];
      bases.push(...ports.map((port) => `http://127.0.0.1:${port}`));
      // All four at once, as an orchestrator starts them (kept before waiting, so that afterAll stops them whatever happens).
      apis.push(spawnService('api', env(0, ports[0])), spawnService('api', env(1, ports[1])));
      workers.push(spawnService('worker', env(0, ports[0])), spawnService('worker', env(1, ports[1])));
      await Promise.all([...apis, ...workers].map((service) => untilReady(service)));

      const made = await workspaceFixtures(bouncer.url(), cursorSecret, `pooled-${mode}`, { DB_POOL_SIZE: '2' });
      fixtures = made.app;
      workspaceId = made.workspaceId;
      token = await made.token('pooled');
    }, 240_000);

    afterAll(async () => {
      for (const service of [...apis, ...workers, ...extra]) await killService(service);
      await fixtures?.close();
      receiver?.closeAllConnections();
      await new Promise((resolve) => receiver?.close(resolve));
      await direct?.end();
      await bouncer?.stop();
    });

    it('started two APIs and two workers through it, applying the migrations once, with no startup parameter it refuses', async () => {
      const applying = [...apis, ...workers].filter((service) => service.output().includes('applying database migrations'));
      expect(applying).toHaveLength(1);
      const rows = (await direct.query<{ name: string; n: number }>('SELECT name, count(*)::int AS n FROM migrations GROUP BY name')).rows;
      expect(rows).toHaveLength(MIGRATIONS.length);
      expect(rows.every((row) => row.n === 1)).toBe(true);
      expect(bouncer.log()).not.toMatch(/unsupported startup parameter/);
      for (const api of bases) expect((await fetch(`${api}/health/ready`)).status).toBe(200);
    });

    it('says whether the cache channel is silent: only a process whose notifications go through a transaction-mode pooler bypasses its caches', async () => {
      const services = [...apis, ...workers];
      const silent = () => services.map((service) => service.output().split(SILENT_CHANNEL).length - 1);
      // Index 0 of each kind has no DATABASE_DIRECT_URL; in transaction mode its LISTEN is on a shared server connection.
      const expected = mode === 'transaction' ? [1, 0, 1, 0] : [0, 0, 0, 0];
      // Within two probe periods and a deadline of its start every process has judged its channel; then a few more periods.
      await waitFor(() => silent().every((count, i) => count >= expected[i]), 10_000, 'the silent channels to be reported');
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(silent()).toEqual(expected); // once each, however many probes went unanswered
    });

    it('answers 40 of 40 SQL statements sent through both APIs', async () => {
      for (let i = 0; i < 5; i++) expect((await send(i, 'POST', '/v2/objects/companies/records', { data: { values: { name: `Pooled ${i}` } } })).status).toBe(200);
      const statements: Array<[string, (rows: Array<Record<string, unknown>>) => void]> = [
        ['SELECT count(*) AS n FROM companies', (rows) => expect(rows).toEqual([{ n: 5 }])],
        ["SELECT name FROM companies WHERE name = 'Pooled 3'", (rows) => expect(rows).toEqual([{ name: 'Pooled 3' }])],
        ['SELECT name FROM companies ORDER BY name LIMIT 2', (rows) => expect(rows).toEqual([{ name: 'Pooled 0' }, { name: 'Pooled 1' }])],
        ['SELECT 1 AS one', (rows) => expect(rows).toEqual([{ one: 1 }])],
      ];
      const statuses: number[] = [];
      for (let round = 0; round < 20; round++) {
        // Two at a time, one per API (the workspace may run 2 at once): the same texts again and again, as a dashboard sends them.
        await Promise.all(
          [0, 1].map(async (index) => {
            const [statement, check] = statements[(round * 2 + index) % statements.length];
            const response = await send(index, 'POST', '/v2/sql', { sql: statement });
            statuses.push(response.status);
            const body = (await response.json()) as { data: { rows: Array<Record<string, unknown>> } };
            if (response.status === 200) check(body.data.rows);
            else throw new Error(`${response.status} ${JSON.stringify(body)} for ${statement}`);
          }),
        );
      }
      expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
    });

    it('refuses a revoked token on both APIs within a second', async () => {
      const revoked = (await fixtures.get(IssueTokenUseCase).execute({ workspaceId, scopes: ALL_SCOPES, name: 'to revoke' })).accessToken;
      const statusOn = (index: number) => send(index, 'GET', '/v2/objects', undefined, revoked).then((response) => response.status);
      for (let i = 0; i < 4; i++) expect(await statusOn(i)).toBe(200); // cached where caches are on
      expect(await fixtures.get(RevokeTokenUseCase).execute(revoked)).not.toBeNull();
      const took = await Promise.all([0, 1].map((index) => within(1000, async () => (await statusOn(index)) === 401)));
      expect(Math.max(...took)).toBeLessThan(1000);
    });

    it('sees a new attribute made through one API on the other within a second', async () => {
      const slug = `tier_${mode}`;
      expect((await send(1, 'GET', '/v2/objects/companies/attributes')).status).toBe(200); // the other API has the object's attributes in mind
      const created = await send(0, 'POST', '/v2/objects/companies/attributes', {
        data: { title: `Tier ${mode}`, api_slug: slug, type: 'number', is_required: false, is_unique: false, is_multiselect: false, config: {} },
      });
      expect(created.status).toBe(200);
      const took = await within(1000, async () => (await send(1, 'POST', '/v2/objects/companies/records', { data: { values: { name: 'Tiered', [slug]: 3 } } })).status === 200);
      expect(took).toBeLessThan(1000);
    });

    it('provisions and deactivates a member through SCIM on one API, refused on the other within a second', async () => {
      const made = await send(0, 'POST', '/scim/v2/Users', { schemas: [SCIM_USER], userName: `joiner@${mode}.pooled.test`, name: { givenName: 'Jo', familyName: 'Iner' }, active: true });
      expect(made.status).toBe(201);
      const joiner = await fetch(`${bases[1]}/scim/v2/Users/${((await made.json()) as { id: string }).id}`, { headers: auth() });
      expect(((await joiner.json()) as { userName: string }).userName).toBe(`joiner@${mode}.pooled.test`);
      const memberId = (await fixtures.get(CreateMemberUseCase).execute({ workspaceId, email: `leaver@${mode}.pooled.test`, accessLevel: 'member' })).memberId;
      const memberToken = (await fixtures.get(IssueTokenUseCase).execute({ workspaceId, scopes: ALL_SCOPES, name: 'member', authorizedByMemberId: memberId })).accessToken;
      const statusOn = (index: number) => send(index, 'GET', '/v2/objects', undefined, memberToken).then((response) => response.status);
      expect([await statusOn(1), await statusOn(1), await statusOn(0)]).toEqual([200, 200, 200]);
      const patched = await fetch(`${bases[0]}/scim/v2/Users/${memberId}`, {
        method: 'PATCH',
        headers: { ...auth(), 'Content-Type': 'application/scim+json' },
        body: JSON.stringify({ schemas: [SCIM_PATCH], Operations: [{ op: 'replace', value: { active: false } }] }),
      });
      expect(patched.status).toBe(200);
      expect(await within(1000, async () => (await statusOn(1)) === 401)).toBeLessThan(1000);
      const listed = await fetch(`${bases[1]}/scim/v2/Users/${memberId}`, { headers: auth() });
      expect(((await listed.json()) as { active: boolean }).active).toBe(false);
    });

    it('drops a change from its own caches before the change\'s request answers, even with its listening connection frozen', async () => {
      // The API with DATABASE_DIRECT_URL (transaction mode) or whose pooled connections are sessions (session mode).
      const api = apis[1];
      let frozen: number[] = [];
      if (mode === 'transaction') {
        // Its own direct connections, by their local ports (`ss -p`): the listening one among them is frozen (SIGSTOP),
        // so that only the committing transaction's own LISTEN can tell the process in time.
        const ports = execFileSync('ss', ['-Htnp', 'state', 'established', `( dport = :${cluster.port} )`], { encoding: 'utf8' })
          .split('\n')
          .filter((line) => line.includes(`pid=${api.child.pid},`))
          .map((line) => Number(/127\.0\.0\.1:(\d+)\s+127\.0\.0\.1:\d+/.exec(line)?.[1]));
        frozen = (await direct.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = 'workbase-cache-invalidations' AND client_port = ANY($1::int[])`, [ports])).rows.map((row) => row.pid);
        expect(frozen).toHaveLength(1);
      }
      const silentBefore = api.output().split(SILENT_CHANNEL).length;
      const refusedAtOnce: boolean[] = [];
      for (let i = 0; i < 10; i++) {
        const memberId = (await fixtures.get(CreateMemberUseCase).execute({ workspaceId, email: `own-${i}@${mode}.pooled.test`, accessLevel: 'member' })).memberId;
        const memberToken = (await fixtures.get(IssueTokenUseCase).execute({ workspaceId, scopes: ALL_SCOPES, name: 'own', authorizedByMemberId: memberId })).accessToken;
        const statusOn = () => send(1, 'GET', '/v2/objects', undefined, memberToken).then((response) => response.status);
        expect([await statusOn(), await statusOn()]).toEqual([200, 200]); // in this API's cache
        for (const pid of frozen) process.kill(pid, 'SIGSTOP');
        try {
          const patched = await fetch(`${bases[1]}/scim/v2/Users/${memberId}`, {
            method: 'PATCH',
            headers: { ...auth(), 'Content-Type': 'application/scim+json' },
            body: JSON.stringify({ schemas: [SCIM_PATCH], Operations: [{ op: 'replace', value: { active: false } }] }),
          });
          expect(patched.status).toBe(200);
          refusedAtOnce.push((await statusOn()) === 401);
        } finally {
          for (const pid of frozen) process.kill(pid, 'SIGCONT');
        }
      }
      expect(refusedAtOnce).toEqual(Array.from({ length: 10 }, () => true));
      // Each freeze was shorter than a probe's deadline: the caches stayed on, so the answers came from them.
      expect(api.output().split(SILENT_CHANNEL).length).toBe(silentBefore);
    });

    it('delivers record.created for every record written through both APIs', async () => {
      const hook = await send(0, 'POST', '/v2/webhooks', { data: { target_url: receiverUrl, subscriptions: [{ event_type: 'record.created', filter: null }] } });
      expect(hook.status).toBe(200);
      const webhookId = ((await hook.json()) as { data: { id: { webhook_id: string } } }).data.id.webhook_id;
      const records = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const response = await send(i, 'POST', '/v2/objects/companies/records', { data: { values: { name: `Hooked ${i}` } } });
          expect(response.status).toBe(200);
          return ((await response.json()) as { data: { id: { record_id: string } } }).data.id.record_id;
        }),
      );
      const delivered = () => new Set(received.filter((event) => event.webhookId === webhookId && event.eventType === 'record.created').map((event) => event.recordId));
      await waitFor(() => records.every((record) => delivered().has(record)), 60_000, 'every record.created');
    });

    it('a worker that waits on the queue start lock says so within 5 s, and starts once it is free', async () => {
      const holder = new Client({ connectionString: bouncer.url() });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock(hashtext($1))', [QUEUE_START_LOCK]);
        const worker = spawnService('worker', env(0, await freePort()));
        extra.push(worker);
        // When the worker's request for the lock reaches PostgreSQL, then when the worker says it waits.
        let waitingSince = 0;
        await waitFor(
          async () => {
            const waiting =
              (await direct.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND ((classid::bigint << 32) | objid::bigint) = hashtext($1)::bigint`, [QUEUE_START_LOCK])).rowCount! > 0;
            if (waiting && !waitingSince) waitingSince = Date.now();
            return waitingSince > 0 && worker.output().includes('waiting for the webhook queue start lock');
          },
          90_000,
          'the third worker to wait and say so',
        );
        expect(Date.now() - waitingSince).toBeLessThan(5_000);
        expect(worker.output()).not.toContain('webhook worker running');
        await holder.query('ROLLBACK');
        await untilReady(worker, 30_000);
      } finally {
        await holder.end().catch(() => undefined);
      }
    });
  });
});
