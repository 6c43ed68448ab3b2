import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RevokeTokenUseCase } from '@workbase/access';
import { FAST_WEBHOOK_ENV } from '../e2e/webhooks.helpers';
import { freePort, killService, type ServiceProcess, startService } from '../support/processes';
import { PG_BIN, type Pg15Cluster, spawnAsServiceUser } from './support/pg15';
import { type TopologyFixtures, workspaceFixtures } from './support/fixtures';
import { queryOnce, startPrimaryWithStandby, until } from './support/standby';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';

const WRITERS = 4;
const READERS = 2;

type Outcome = number | 'connection error' | 'timeout';

interface Answer {
  readonly kind: 'write' | 'read' | 'ready';
  readonly startedAt: number;
  readonly endedAt: number;
  readonly outcome: Outcome;
  readonly recordId?: string;
  readonly retryAfter?: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Failover under load: a primary with a synchronous standby behind a TCP proxy (a virtual IP or
 * HAProxy in front of Patroni), an API and a webhook worker reaching it through the proxy, four
 * writers and two readers. The primary is killed -9, the standby promoted and the proxy moved.
 * Every answer in the gap is a 2xx, a 503 or a connection error; writes come back within 10 s of
 * the promotion; no acknowledged write is lost and each one's record.created is delivered;
 * revocation works within a second after; readiness answers 503 in the gap and 200 after.
 */
describe('failover of a primary with a synchronous standby, under load', () => {
  let primary: Pg15Cluster;
  let standby: Pg15Cluster;
  let proxy: TcpProxy;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let fixtures: TopologyFixtures;
  let receiver: Server;
  const delivered = new Map<string, number>();
  let base: string;
  let token: string;
  let revocable: string;

  beforeAll(async () => {
    ({ primary, standby } = await startPrimaryWithStandby('standby1'));
    await queryOnce(primary.url(), `ALTER SYSTEM SET synchronous_standby_names = 'standby1'`);
    await queryOnce(primary.url(), 'SELECT pg_reload_conf()');
    await until('a synchronous standby', async () => (await queryOnce<{ sync_state: string }>(primary.url(), `SELECT sync_state FROM pg_stat_replication`))[0]?.sync_state === 'sync', 30_000);

    proxy = await startTcpProxy(primary.port);
    const url = `postgres://postgres:${encodeURIComponent(primary.password)}@127.0.0.1:${proxy.port}/workbase`;

    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { events: { event_type: string; id: { record_id?: string } }[] };
        for (const event of body.events) if (event.event_type === 'record.created' && event.id.record_id) delivered.set(event.id.record_id, Date.now());
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const cursorSecret = randomBytes(24).toString('hex');
    const env = {
      ...FAST_WEBHOOK_ENV,
      DATABASE_URL: url,
      PORT: String(port),
      BASE_URL: base,
      CURSOR_SECRET: cursorSecret,
      LOG_LEVEL: 'warn',
      RUN_WORKER: 'false',
      SEED_DEMO_WORKSPACE: 'false',
      RATE_LIMIT_ENABLED: 'false',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      DB_POOL_SIZE: '8',
    };
    api = await startService('api', env);
    worker = await startService('worker', env);

    fixtures = await workspaceFixtures(url, cursorSecret, 'failover');
    token = await fixtures.token('load');
    revocable = await fixtures.token('revoked after the failover');
    const hook = await send('POST', '/v2/webhooks', { data: { target_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, subscriptions: [{ event_type: 'record.created', filter: null }] } });
    expect(hook.status).toBe(200);
  }, 170_000);

  afterAll(async () => {
    await killService(api);
    await killService(worker);
    await fixtures?.app.close().catch(() => undefined);
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await proxy?.close();
    await standby?.destroy();
    await primary?.destroy();
  });

  function send(method: string, route: string, body?: unknown, as = token): Promise<Response> {
    return fetch(`${base}${route}`, {
      method,
      headers: { Authorization: `Bearer ${as}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  }

  async function timed(kind: Answer['kind'], request: () => Promise<Response>, read?: (body: unknown) => string): Promise<Answer> {
    const startedAt = Date.now();
    try {
      const res = await request();
      const body = await res.json().catch(() => null);
      return { kind, startedAt, endedAt: Date.now(), outcome: res.status, retryAfter: res.headers.get('retry-after'), recordId: res.status === 200 && read ? read(body) : undefined };
    } catch (error) {
      const name = (error as Error).name;
      return { kind, startedAt, endedAt: Date.now(), outcome: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'connection error' };
    }
  }

  it('answers 2xx, 503 or a connection error throughout, loses no acknowledged write and delivers its event, and recovers within 10 s', async () => {
    const known = await send('POST', '/v2/objects/companies/records', { data: { values: { name: 'Before the failover' } } });
    const knownId = ((await known.json()) as { data: { id: { record_id: string } } }).data.id.record_id;
    // The revocable token is in the API's cache before the failover.
    expect((await send('GET', '/v2/objects/companies', undefined, revocable)).status).toBe(200);

    const answers: Answer[] = [];
    let stop = false;
    let n = 0;
    const writer = async (w: number) => {
      while (!stop) {
        const name = `w${w}-${n++}`;
        answers.push(await timed('write', () => send('POST', '/v2/objects/companies/records', { data: { values: { name } } }), (body) => (body as { data: { id: { record_id: string } } }).data.id.record_id));
      }
    };
    const reader = async () => {
      while (!stop) answers.push(await timed('read', () => send('GET', `/v2/objects/companies/records/${knownId}`)));
    };
    const readiness = async () => {
      while (!stop) {
        answers.push(await timed('ready', () => fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(30_000) })));
        await sleep(100);
      }
    };
    const load = Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), ...Array.from({ length: READERS }, reader), readiness()]);

    await sleep(2_000);
    const killedAt = Date.now();
    await primary.kill9();
    await spawnAsServiceUser(`${PG_BIN}/pg_ctl`, ['-D', standby.dataDir, '-w', '-t', '60', 'promote']);
    proxy.moveTo(standby.port);
    const promotedAt = Date.now();
    const firstWriteBack = await until('a write acknowledged after the promotion', async () => answers.find((a) => a.kind === 'write' && a.startedAt >= promotedAt && a.outcome === 200), 30_000);
    await sleep(2_000);
    stop = true;
    await load;

    const unexpected = answers.filter((a) => !(a.outcome === 'connection error' || a.outcome === 503 || (typeof a.outcome === 'number' && a.outcome >= 200 && a.outcome < 300)));
    expect(unexpected).toEqual([]);
    const unavailable = answers.filter((a) => a.outcome === 503);
    expect(unavailable.filter((a) => a.kind !== 'ready' && !a.retryAfter)).toEqual([]);
    expect(firstWriteBack.endedAt - promotedAt).toBeLessThan(10_000);
    const acknowledged = answers.filter((a) => a.kind === 'write' && a.outcome === 200).map((a) => a.recordId!);
    expect(acknowledged.length).toBeGreaterThan(10);

    // 0 acknowledged writes lost: each is on the promoted standby.
    const stored = await queryOnce<{ id: string }>(standby.url('workbase'), 'SELECT id::text FROM records WHERE id = ANY($1::uuid[])', [acknowledged]);
    expect(acknowledged.filter((id) => !stored.some((row) => row.id === id))).toEqual([]);

    // Each acknowledged record's record.created is delivered (at least once).
    await until('every acknowledged record.created delivered', async () => acknowledged.every((id) => delivered.has(id)), 60_000).catch(() => undefined);
    expect(acknowledged.filter((id) => !delivered.has(id))).toEqual([]);

    // Readiness answered 503 while the database was away (never 500: `unexpected` above), and is back to 200.
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);

    // Revocation, made on the promoted primary, is seen by the API within a second.
    expect(await fixtures.app.get(RevokeTokenUseCase).execute(revocable)).not.toBeNull();
    const revokedAt = Date.now();
    await until('the revoked token refused', async () => (await send('GET', '/v2/objects/companies', undefined, revocable)).status === 401, 5_000);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);

    // One WARN line per failed request, never an ERROR for the database being away.
    const lines = api.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.filter((line) => line.msg === 'database unavailable').length).toBe(unavailable.length);

    const count = (kind: Answer['kind'], outcome: Outcome) => answers.filter((a) => a.kind === kind && a.outcome === outcome).length;
    console.log(
      `failover: promoted ${promotedAt - killedAt} ms after the kill; first write acknowledged ${firstWriteBack.endedAt - promotedAt} ms after the promotion; ` +
        `writes ${count('write', 200)} ok / ${count('write', 503)} 503 / ${count('write', 'connection error')} connection errors; ` +
        `reads ${count('read', 200)} ok / ${count('read', 503)} 503; readiness ${count('ready', 200)} ok / ${count('ready', 503)} 503; ` +
        `revocation seen ${Date.now() - revokedAt} ms after; events delivered ${acknowledged.length}/${acknowledged.length}`,
    );
  });
});
