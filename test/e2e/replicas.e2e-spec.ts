import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { CreateMemberUseCase, CreateWorkspaceUseCase, IssueTokenUseCase } from '@workbase/access';
import { CreateOAuthAppUseCase } from '@workbase/oauth';
import { loadConfig } from '@workbase/shared/config';
import { createLogger } from '@workbase/shared/http';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { MIGRATIONS, withDatabase } from '@workbase/shared/persistence';
import { Client } from 'pg';
import { createApp } from '../../apps/api/src/app.factory';
import { freePort, killService, type ServiceProcess, startService } from '../support/processes';
import { FAST_WEBHOOK_ENV, waitFor } from './webhooks.helpers';

const READS_PER_SECOND = 20;

interface Delivery {
  readonly webhookId: string;
  readonly recordId: string;
  readonly headers: IncomingHttpHeaders;
  readonly remotePort: number;
}

/** The process that holds a loopback TCP connection, by its local port (`ss -p`). */
function pidOfConnection(localPort: number): number | null {
  const out = execFileSync('ss', ['-Htnp', 'state', 'established', `( sport = :${localPort} )`], { encoding: 'utf8' });
  const match = /pid=(\d+)/.exec(out);
  return match ? Number(match[1]) : null;
}

/**
 * Two API processes and two worker processes on one PostgreSQL (the external one in CI's second
 * pass), as replicas run behind a load balancer: what one process does, the other sees.
 */
describe('replicas: two APIs and two workers on one database', () => {
  const database = `wbt_${process.env.WB_TEST_RUN_ID}_replicas_${randomBytes(3).toString('hex')}`;
  let url: string;
  let fixtures: INestApplication;
  const apis: ServiceProcess[] = [];
  const workers: ServiceProcess[] = [];
  const bases: string[] = [];
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];
  let hangNext: ((delivery: Delivery, res: ServerResponse) => boolean) | null = null;
  let workspaceId: string;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });

  beforeAll(async () => {
    const adminUrl = process.env.WB_TEST_ADMIN_URL!;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`); // empty: the processes migrate it
    await admin.end();
    url = withDatabase(adminUrl, database);

    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { webhook_id: string; events: { id: { record_id: string } }[] };
        const delivery = { webhookId: body.webhook_id, recordId: body.events[0].id.record_id, headers: req.headers, remotePort: req.socket.remotePort! };
        if (hangNext?.(delivery, res)) return;
        deliveries.push(delivery);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const cursorSecret = randomBytes(24).toString('hex');
    const env = (port: number) => ({
      ...FAST_WEBHOOK_ENV,
      DATABASE_URL: url,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      CURSOR_SECRET: cursorSecret,
      LOG_LEVEL: 'info',
      RUN_WORKER: 'false',
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_READS_PER_SECOND: String(READS_PER_SECOND),
      RATE_LIMIT_WRITES_PER_SECOND: '10000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      DB_POOL_SIZE: '4',
    });
    const ports = [await freePort(), await freePort()];
    bases.push(...ports.map((port) => `http://127.0.0.1:${port}`));
    // All four at once, as an orchestrator starts them: the migrations run exactly once, and the
    // workers both create pg-boss's queue on a database that has none (DeliveryQueue.start).
    const started = await Promise.all([startService('api', env(ports[0])), startService('api', env(ports[1])), startService('worker', env(ports[0])), startService('worker', env(ports[1]))]);
    apis.push(started[0], started[1]);
    workers.push(started[2], started[3]);

    const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', CURSOR_SECRET: cursorSecret, RUN_WORKER: 'false' });
    fixtures = await createApp(config, url, createLogger('silent'));
    const workspace = await fixtures.get(CreateWorkspaceUseCase).execute({ name: 'Replicas', slug: 'replicas', adminEmail: 'admin@replicas.test' });
    workspaceId = workspace.workspaceId;
    token = (await fixtures.get(IssueTokenUseCase).execute({ workspaceId, scopes: ALL_SCOPES, name: 'replicas' })).accessToken;
  }, 240_000);

  afterAll(async () => {
    for (const service of [...apis, ...workers]) await killService(service);
    await fixtures?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    const admin = new Client({ connectionString: process.env.WB_TEST_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  const api = (index: number) => bases[index % 2];
  const post = (index: number, path: string, body: unknown) => fetch(`${api(index)}${path}`, { method: 'POST', headers: auth(), body: JSON.stringify(body) });

  it('applied the migrations once although four processes started together', async () => {
    const applying = [...apis, ...workers].filter((service) => service.output().includes('applying database migrations'));
    expect(applying).toHaveLength(1);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const rows = (await client.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM migrations GROUP BY name`)).rows;
      expect(rows).toHaveLength(MIGRATIONS.length);
      expect(rows.every((row) => row.n === 1)).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('keeps idle connections open longer than the balancers and client pools in front (HTTP_KEEP_ALIVE_TIMEOUT_MS, 65 s)', async () => {
    for (const index of [0, 1]) {
      const res = await fetch(`${api(index)}/health`);
      expect(res.status).toBe(200);
      expect(res.headers.get('keep-alive')).toBe('timeout=65');
    }
  });

  it('delivers every event once per subscription with two workers, and a cursor from one API pages on the other', async () => {
    const hooks: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await post(i, '/v2/webhooks', { data: { target_url: receiverUrl, subscriptions: [{ event_type: 'record.created', filter: null }] } });
      expect(created.status).toBe(200);
      hooks.push(((await created.json()) as { data: { id: { webhook_id: string } } }).data.id.webhook_id);
    }
    const records = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const response = await post(i, '/v2/objects/companies/records', { data: { values: { name: `Replica ${i}` } } });
        expect(response.status).toBe(200);
        return ((await response.json()) as { data: { id: { record_id: string } } }).data.id.record_id;
      }),
    );
    const expected = hooks.flatMap((hook) => records.map((record) => `${hook}/${record}`)).sort();
    await waitFor(() => new Set(deliveries.map((d) => `${d.webhookId}/${d.recordId}`)).size >= expected.length, 60_000, 'every delivery');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a duplicate would arrive by now
    expect(deliveries.map((d) => `${d.webhookId}/${d.recordId}`).sort()).toEqual(expected);
    // Both workers took part (pg-boss hands each job to one of them).
    const workerPids = new Set(deliveries.map((d) => pidOfConnection(d.remotePort)).filter((pid): pid is number => pid !== null));
    expect([...workerPids].every((pid) => workers.some((w) => w.child.pid === pid))).toBe(true);

    const first = await fetch(`${api(0)}/v2/webhooks/${hooks[0]}/deliveries?limit=5`, { headers: auth() });
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as { data: { id: { delivery_id: string } }[]; pagination: { next_cursor: string } };
    expect(page1.pagination.next_cursor).toEqual(expect.any(String));
    const second = await fetch(`${api(1)}/v2/webhooks/${hooks[0]}/deliveries?limit=5&cursor=${encodeURIComponent(page1.pagination.next_cursor)}`, { headers: auth() });
    expect(second.status).toBe(200);
    const page2 = (await second.json()) as { data: { id: { delivery_id: string } }[] };
    expect(page2.data).toHaveLength(5);
    expect(page2.data.some((d) => page1.data.some((e) => e.id.delivery_id === d.id.delivery_id))).toBe(false);
  });

  it('delivers at least once when the worker holding a delivery is killed with SIGKILL', async () => {
    let victim: ServiceProcess | undefined;
    let hung: Delivery | undefined;
    hangNext = (delivery, res) => {
      if (hung) return false;
      hung = delivery;
      const pid = pidOfConnection(delivery.remotePort);
      victim = workers.find((worker) => worker.child.pid === pid);
      victim?.child.kill('SIGKILL'); // dies with this request open: no answer, no bookkeeping
      res.socket?.destroy();
      return true;
    };
    const response = await post(0, '/v2/objects/companies/records', { data: { values: { name: 'Killed mid-delivery' } } });
    expect(response.status).toBe(200);
    const recordId = ((await response.json()) as { data: { id: { record_id: string } } }).data.id.record_id;
    await waitFor(() => hung, 30_000, 'the delivery to hang');
    expect(victim).toBeDefined();
    await victim!.exited();
    // The other worker delivers it (after the job of the dead one expires), for both subscriptions.
    const redelivered = await waitFor(() => deliveries.find((d) => d.recordId === recordId && d.webhookId === hung!.webhookId), 60_000, 'redelivery by the surviving worker');
    expect(pidOfConnection(redelivered.remotePort) ?? workers.find((w) => w !== victim)!.child.pid).not.toBe(victim!.child.pid);
    // The other subscription's event arrives too (at least once: it may have been in flight in the dead worker as well).
    await waitFor(() => deliveries.some((d) => d.recordId === recordId && d.webhookId !== hung!.webhookId), 60_000, 'the other subscription');
    expect(redelivered.headers['webhook-id']).toBe(hung!.headers['webhook-id']);
    hangNext = null;
  }, 120_000);

  it('shares one rate-limit budget per token across both APIs (within 10 %)', async () => {
    // Start right after a window boundary, so that the whole burst falls into one window.
    while (Date.now() % 1000 > 30) await new Promise((resolve) => setTimeout(resolve, 5));
    const statuses = await Promise.all(Array.from({ length: READS_PER_SECOND * 2 }, (_, i) => fetch(`${api(i)}/v2/self`, { headers: auth() }).then((r) => r.status)));
    const allowed = statuses.filter((status) => status === 200).length;
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(allowed).toBeGreaterThanOrEqual(Math.floor(READS_PER_SECOND * 0.9));
    expect(allowed).toBeLessThanOrEqual(Math.ceil(READS_PER_SECOND * 1.1));
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the next window for the tests after this one
  });

  it('refuses on one API a token revoked and a member deactivated through the other', async () => {
    const app = await fixtures.get(CreateOAuthAppUseCase).execute({ name: 'Replica client', redirectUris: ['http://127.0.0.1:9/cb'], scopes: 'all' });
    const member = await fixtures.get(CreateMemberUseCase).execute({ workspaceId, email: 'leaver@replicas.test', accessLevel: 'member' });
    const issue = (options: { clientId?: string; memberId?: string }) =>
      fixtures.get(IssueTokenUseCase).execute({ workspaceId, scopes: ALL_SCOPES, name: 'probe', clientId: options.clientId, authorizedByMemberId: options.memberId }).then((issued) => issued.accessToken);
    const oauthToken = await issue({ clientId: app.clientId });
    const memberToken = await issue({ memberId: member.memberId });
    const objects = (base: string, bearer: string) => fetch(`${base}/v2/objects`, { headers: { Authorization: `Bearer ${bearer}` } }).then((r) => r.status);
    expect([await objects(api(0), oauthToken), await objects(api(1), oauthToken), await objects(api(0), memberToken), await objects(api(1), memberToken)]).toEqual([200, 200, 200, 200]);

    const revoked = await fetch(`${api(0)}/oauth/revoke`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: oauthToken }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await objects(api(1), oauthToken)).toBe(401);

    const deactivated = await fetch(`${api(0)}/scim/v2/Users/${member.memberId}`, {
      method: 'PATCH',
      headers: { ...auth(), 'Content-Type': 'application/scim+json' },
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] }),
    });
    expect(deactivated.status).toBe(200);
    expect(await objects(api(1), memberToken)).toBe(401);
    expect(await objects(api(1), token)).toBe(200); // the workspace's other tokens are untouched
  });

  it('makes one record of concurrent upserts by the same key through both APIs', async () => {
    const domain = `upsert-${randomBytes(3).toString('hex')}.example`;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${api(i)}/v2/objects/companies/records?matching_attribute=domains`, { method: 'PUT', headers: auth(), body: JSON.stringify({ data: { values: { domains: [domain], name: `Upserted ${i}` } } }) }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { data?: { id: { record_id: string } }; code?: string },
        })),
      ),
    );
    // Every writer either upserted or was told to retry (a concurrent write conflict is a 409, never a duplicate).
    expect(results.filter((r) => r.status !== 200 && !(r.status === 409 && r.body.code === 'concurrent_write_conflict'))).toEqual([]);
    const ids = new Set(results.filter((r) => r.status === 200).map((r) => r.body.data!.id.record_id));
    expect(ids.size).toBe(1);
    const listed = await fetch(`${api(1)}/v2/objects/companies/records/query`, { method: 'POST', headers: auth(), body: JSON.stringify({ limit: 500 }) });
    expect(listed.status).toBe(200);
    const withDomain = ((await listed.json()) as { data: { values: { domains?: { domain: string }[] } }[] }).data.filter((record) => record.values.domains?.some((d) => d.domain === domain));
    expect(withDomain).toHaveLength(1);
  });
});
