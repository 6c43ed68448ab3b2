import { Agent, request } from 'node:http';
import { makeDataDir, postmasterPid, removeDataDir } from '../support/data-dir';
import { freePort, killService, type ServiceProcess, startService } from '../support/processes';
import { FAST_WEBHOOK_ENV, type Receiver, startReceiver, waitFor } from './webhooks.helpers';

interface Outcome {
  readonly kind: 'response' | 'refused' | 'reset';
  readonly status?: number;
  readonly body?: string;
  readonly error?: string;
  /** The server asked for the connection to close: it is draining, a client should go elsewhere. */
  readonly connectionClose?: boolean;
}

/** One request on a keep-alive agent, classified: an answer, a refused connection (not accepted), or a reset (accepted, then dropped). */
function send(agent: Agent, port: number, method: string, pathname: string, headers: Record<string, string>, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path: pathname, agent, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ kind: 'response', status: res.statusCode, body: Buffer.concat(chunks).toString(), connectionClose: res.headers.connection === 'close' }));
      res.on('error', (error) => resolve({ kind: 'reset', error: String(error) }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: error.code === 'ECONNREFUSED' ? 'refused' : 'reset', error: `${error.code}: ${error.message}` }));
    req.end(body);
  });
}

describe('graceful shutdown under load (SIGTERM to the process group)', () => {
  let dataDir: string;
  let server: ServiceProcess | undefined;
  let rx: Receiver | undefined;

  beforeAll(() => {
    dataDir = makeDataDir('shutdown');
  });
  afterAll(async () => {
    await killService(server);
    await rx?.close();
    await removeDataDir(dataDir);
  });

  it('answers readiness 503 first, finishes accepted requests, loses no acknowledged write, delivers every event, and exits within 10 s', async () => {
    const port = await freePort();
    const env = {
      ...FAST_WEBHOOK_ENV,
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
      RUN_WORKER: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Long enough that every writer gets an answer during the drain even on a loaded machine (a
      // write took over 500 ms under CI load): a writer that is never told to go elsewhere sends its
      // next request as the server closes idle connections, which HTTP/1.1 cannot tell apart from
      // a connection the client has given up on.
      SHUTDOWN_DRAIN_MS: '1500',
      RATE_LIMIT_WRITES_PER_SECOND: '100000',
      RATE_LIMIT_READS_PER_SECOND: '100000',
    };
    server = await startService('api', env, 120_000, { detached: true });
    const token = /"demo_token":"(wb_[A-Za-z0-9_-]+)"/.exec(server.output())?.[1];
    expect(token).toBeDefined();
    const auth = { Authorization: `Bearer ${token}` };
    // Every write records a record.created event: deliveries run in the same process while it stops.
    rx = await startReceiver();
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const hook = await send(agent, port, 'POST', '/v2/webhooks', auth, JSON.stringify({ data: { target_url: rx.url, subscriptions: [{ event_type: 'record.created', filter: null }] } }));
    expect(hook.status).toBe(200);

    const acknowledged: string[] = [];
    const failures: Outcome[] = [];
    let signalledAt = Number.POSITIVE_INFINITY;
    let acknowledgedAfterSignal = 0;
    let drained = 0;
    let stop = false;
    // Writers behave as clients behind a load balancer: they keep writing until the server tells
    // them it is draining (`Connection: close`), then go elsewhere. A new connection opened at
    // the instant the listening socket closes may be reset by the kernel before the server ever
    // reads it: that request was never accepted, and readiness had said 503 for SHUTDOWN_DRAIN_MS.
    const writer = async (writerIndex: number) => {
      for (let i = 0; !stop; i++) {
        const outcome = await send(agent, port, 'POST', '/v2/objects/companies/records', auth, JSON.stringify({ data: { values: { name: `Writer ${writerIndex} #${i}` } } }));
        if (outcome.kind !== 'response' || outcome.status !== 200) {
          failures.push(outcome);
          return;
        }
        acknowledged.push((JSON.parse(outcome.body!) as { data: { id: { record_id: string } } }).data.id.record_id);
        if (Date.now() >= signalledAt) acknowledgedAfterSignal++;
        if (outcome.connectionClose) {
          drained++;
          return;
        }
      }
    };
    const readiness: Array<{ at: number; status: number | 'refused' | 'reset' }> = [];
    const poller = (async () => {
      while (!stop) {
        const outcome = await send(new Agent({ keepAlive: false }), port, 'GET', '/health/ready', {});
        readiness.push({ at: Date.now(), status: outcome.kind === 'response' ? outcome.status! : outcome.kind });
        if (outcome.kind === 'refused') return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const writers = Array.from({ length: 8 }, (_, index) => writer(index));
    await waitFor(() => acknowledged.length >= 40, 60_000, '40 acknowledged writes before SIGTERM');

    signalledAt = Date.now();
    process.kill(-server.child.pid!, 'SIGTERM'); // the whole group, as systemd and a terminal do
    const exit = await server.exited();
    const exitedAfterMs = Date.now() - signalledAt;
    stop = true;
    await Promise.all([...writers, poller]);
    agent.destroy();

    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitedAfterMs).toBeLessThan(10_000);
    expect(failures).toEqual([]);
    expect(drained).toBe(8); // every writer was still writing when the drain began, and was told so
    expect(acknowledgedAfterSignal).toBeGreaterThanOrEqual(8); // requests in flight at SIGTERM and during the drain completed
    // The server takes no new request now.
    expect((await send(new Agent(), port, 'POST', '/v2/objects/companies/records', auth, '{}')).kind).toBe('refused');
    // Readiness turned 503 after the signal and before the server stopped accepting connections.
    const afterSignal = readiness.filter((probe) => probe.at >= signalledAt);
    const first503 = afterSignal.findIndex((probe) => probe.status === 503);
    const firstRefused = afterSignal.findIndex((probe) => probe.status === 'refused');
    expect(first503).toBeGreaterThanOrEqual(0);
    expect(firstRefused).toBeGreaterThan(first503);
    // Every answer while draining was 503; a probe that connected as the listening socket closed may
    // have been reset by the kernel instead of answered, which is only possible at the very end.
    const draining = afterSignal.slice(first503, firstRefused).map((probe) => probe.status);
    const lastAnswer = draining.lastIndexOf(503);
    expect({ draining, answered: draining.slice(0, lastAnswer + 1).every((status) => status === 503), thenReset: draining.slice(lastAnswer + 1).every((status) => status === 'reset') }).toMatchObject({ answered: true, thenReset: true });
    expect(server.output()).toMatch(/"msg":"stopped"/);
    // The embedded cluster stopped cleanly: no postmaster left, its pid file removed by PostgreSQL itself.
    expect(postmasterPid(dataDir)).toBeNull();

    // Started again: every acknowledged write is there, and every one's event reaches the receiver.
    server = await startService('api', env);
    const missing: string[] = [];
    const again = new Agent({ keepAlive: true });
    for (const id of acknowledged) {
      const found = await send(again, port, 'GET', `/v2/objects/companies/records/${id}`, auth);
      if (found.status !== 200) missing.push(id);
    }
    expect(missing).toEqual([]);
    const delivered = () => new Set(rx!.accepted.map((request) => (JSON.parse(request.body) as { events: { id: { record_id: string } }[] }).events[0].id.record_id));
    await waitFor(() => acknowledged.every((id) => delivered().has(id)), 60_000, `delivery of ${acknowledged.length} events`);
    again.destroy();
    server.child.kill('SIGTERM');
    expect(await server.exited()).toEqual({ code: 0, signal: null });
  }, 300_000);
});
