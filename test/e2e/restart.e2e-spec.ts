import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isAlive, makeDataDir, postmasterPid, removeDataDir, untilDead } from '../support/data-dir';
import { freePort, killService, type ServiceProcess, spawnService, untilReady } from '../support/processes';
import { FAST_WEBHOOK_ENV, type Receiver, startReceiver, waitFor } from './webhooks.helpers';

describe('the server and the worker on their embedded database', () => {
  let dataDir: string;
  let port: number;
  let base: string;
  let env: Record<string, string | undefined>;
  const running: ServiceProcess[] = [];
  let rx: Receiver | undefined;
  let bystander: ChildProcess | undefined;

  const start = async (kind: 'api' | 'worker') => {
    const service = spawnService(kind, env);
    running.push(service);
    try {
      await untilReady(service);
    } catch (error) {
      // The other process's side of the story (which one started, joined or stopped the cluster).
      const others = running.slice(-4).filter((other) => other !== service);
      throw new Error(`${(error as Error).message}\n${others.map((other) => `--- ${other.kind} (exit ${other.child.exitCode ?? other.child.signalCode ?? 'none yet'}):\n${other.output().slice(-4000)}`).join('\n')}`, { cause: error });
    }
    return service;
  };

  beforeAll(async () => {
    dataDir = makeDataDir('restart');
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...FAST_WEBHOOK_ENV,
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      PORT: String(port),
      BASE_URL: base,
      LOG_LEVEL: 'info',
      RUN_WORKER: 'false',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      DB_POOL_SIZE: '4',
    };
  });
  afterAll(async () => {
    for (const service of running) await killService(service);
    bystander?.kill('SIGKILL');
    await rx?.close();
    await removeDataDir(dataDir);
  });

  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });

  it('seeds a demo workspace once, survives kill -9, keeps its data, and stops PostgreSQL on SIGTERM', async () => {
    let server = await start('api');
    token = /"demo_token":"(wb_[A-Za-z0-9_-]+)"/.exec(server.output())?.[1] ?? '';
    expect(token).toMatch(/^wb_/);
    expect(await (await fetch(`${base}/v2/self`, { headers: auth() })).json()).toMatchObject({ active: true, workspace_slug: 'demo' });
    const created = await fetch(`${base}/v2/objects`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ data: { api_slug: 'survivors', singular_noun: 'Survivor', plural_noun: 'Survivors' } }),
    });
    expect(created.status).toBe(200);

    // kill -9: no shutdown hook runs, the postmaster is orphaned with its pid file in place.
    const orphan = postmasterPid(dataDir);
    expect(orphan).not.toBeNull();
    server.child.kill('SIGKILL');
    await server.exited();
    expect(isAlive(orphan!)).toBe(true);

    server = await start('api');
    expect(server.output()).not.toContain('First start');
    const object = await fetch(`${base}/v2/objects/survivors`, { headers: auth() });
    expect(object.status).toBe(200);
    expect(((await object.json()) as { data: { api_slug: string } }).data.api_slug).toBe('survivors');
    expect(isAlive(orphan!)).toBe(false);

    // A graceful stop takes its PostgreSQL down with it.
    const current = postmasterPid(dataDir);
    expect(current).not.toBeNull();
    server.child.kill('SIGTERM');
    expect(await server.exited()).toEqual({ code: 0, signal: null });
    await untilDead(current!);
    expect(isAlive(current!)).toBe(false);
  }, 240_000);

  it('restarts after kill -9 of the API and the worker five times in a row: every start is ready, every committed event is delivered, a joined worker follows the cluster', async () => {
    rx = await startReceiver();
    const delivered = () => new Set(rx!.accepted.map((request) => (JSON.parse(request.body) as { events: { id: { record_id: string } }[] }).events[0].id.record_id));
    const committed: string[] = [];
    const createCompanies = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const response = await fetch(`${base}/v2/objects/companies/records`, { method: 'POST', headers: auth(), body: JSON.stringify({ data: { values: { name: `Restart ${committed.length}` } } }) });
        expect(response.status).toBe(200);
        committed.push(((await response.json()) as { data: { id: { record_id: string } } }).data.id.record_id);
      }
    };
    const expectReady = async () => expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    const expectAllDelivered = async () => {
      await waitFor(() => committed.every((id) => delivered().has(id)), 60_000, `delivery of ${committed.length} events`);
    };

    // Both at once, as a supervisor starts them: one starts the cluster, the other joins it.
    let [api, worker] = await Promise.all([start('api'), start('worker')]);
    await expectReady();
    const hook = await fetch(`${base}/v2/webhooks`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ data: { target_url: rx.url, subscriptions: [{ event_type: 'record.created', filter: null }] } }),
    });
    expect(hook.status).toBe(200);
    await createCompanies(3);
    await expectAllDelivered();

    const killBoth = async () => {
      api.child.kill('SIGKILL');
      worker.child.kill('SIGKILL');
      await Promise.all([api.exited(), worker.exited()]);
    };
    const rounds: Array<{ name: string; before: () => Promise<void> }> = [
      { name: 'the postmaster survives its owner', before: async () => undefined },
      {
        name: 'the postmaster is killed too: a stale pid file',
        before: async () => {
          const pid = postmasterPid(dataDir)!;
          process.kill(pid, 'SIGKILL');
          await untilDead(pid);
        },
      },
      {
        name: "the pid file names a live process that is not PostgreSQL (a reused pid)",
        before: async () => {
          const pid = postmasterPid(dataDir)!;
          process.kill(pid, 'SIGKILL');
          await untilDead(pid);
          bystander = spawn('sleep', ['600'], { stdio: 'ignore' });
          const file = path.join(dataDir, 'pg', 'postmaster.pid');
          const lines = readFileSync(file, 'utf8').split('\n');
          lines[0] = String(bystander.pid);
          writeFileSync(file, lines.join('\n'));
        },
      },
      { name: 'again, with the worker started first', before: async () => undefined },
    ];
    for (const [index, round] of rounds.entries()) {
      await createCompanies(2); // committed, perhaps not yet delivered, when both die
      await killBoth();
      await round.before();
      if (index === 3) {
        worker = await start('worker');
        api = await start('api');
      } else {
        [api, worker] = await Promise.all([start('api'), start('worker')]);
      }
      await expectReady();
      await createCompanies(2);
      await expectAllDelivered();
    }
    expect(isAlive(bystander!.pid!)).toBe(true); // never signalled: it was never taken for PostgreSQL

    // Fifth: only the cluster's owner dies. Its successor restarts the orphaned cluster on the same
    // port, and the worker that had joined it follows without a restart of its own.
    const ownerIsApi = !api.output().includes('joining the embedded PostgreSQL') || worker.output().includes('joining the embedded PostgreSQL');
    const owner = ownerIsApi ? api : worker;
    const follower = ownerIsApi ? worker : api;
    const portBefore = readFileSync(path.join(dataDir, 'port'), 'utf8');
    await createCompanies(2);
    owner.child.kill('SIGKILL');
    await owner.exited();
    const successor = await start(owner.kind);
    if (owner.kind === 'api') api = successor;
    else worker = successor;
    expect(readFileSync(path.join(dataDir, 'port'), 'utf8')).toBe(portBefore);
    await waitFor(async () => (await fetch(`${base}/health/ready`)).status === 200, 30_000, 'readiness after the fifth restart');
    await createCompanies(3);
    await expectAllDelivered();
    expect(follower.child.exitCode).toBeNull();

    // Finally a clean stop of both, the cluster with them.
    const pid = postmasterPid(dataDir)!;
    api.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(await api.exited()).toEqual({ code: 0, signal: null });
    expect(await worker.exited()).toEqual({ code: 0, signal: null });
    await untilDead(pid);
    expect(isAlive(pid)).toBe(false);
  }, 420_000);

  it('an API and a worker started together on a fresh DATA_DIR both start: one initialises and starts the cluster, the other joins it', async () => {
    const freshDir = makeDataDir('fresh');
    const freshEnv = { ...env, DATA_DIR: freshDir, PORT: String(await freePort()) };
    const both = (['api', 'worker'] as const).map((kind) => spawnService(kind, freshEnv));
    running.push(...both);
    try {
      await Promise.all(both.map((service) => untilReady(service)));
      const joined = both.filter((service) => service.output().includes('joining the embedded PostgreSQL'));
      expect(joined).toHaveLength(1);
      // Nothing half-initialised is left beside the cluster.
      expect(readdirSync(freshDir).filter((name) => name.startsWith('pg.initialising'))).toEqual([]);
    } finally {
      for (const service of both) await killService(service);
      await removeDataDir(freshDir);
    }
  }, 240_000);

  it('a worker whose cluster is gone for good exits non-zero with the reason instead of looping on errors', async () => {
    const owner = await start('api');
    const joined = spawnService('worker', { ...env, EMBEDDED_REJOIN_WITHIN_MS: '2000' });
    running.push(joined);
    await untilReady(joined);
    expect(joined.output()).toContain('joining the embedded PostgreSQL');
    owner.child.kill('SIGKILL');
    await owner.exited();
    const pid = postmasterPid(dataDir)!;
    process.kill(pid, 'SIGKILL'); // the cluster dies with it, and nobody starts it again
    const exit = await joined.exited();
    expect(exit.code).toBe(75);
    expect(joined.output()).toMatch(/went away and did not come back within 2 s; exiting with status 75/);
  }, 180_000);
});
