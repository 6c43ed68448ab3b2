import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateMemberUseCase } from '@workbase/access';
import type { DomainEvent } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { WebhookWorker } from '@workbase/webhooks';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { useForSuite } from '../support/suite';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Fast delivery settings: retries in fractions of a second (21 attempts over ~10 s, so a receiver
 * failing half the time loses an event with odds of 2^-21), quick crash recovery, circuits that
 * probe again within a second.
 */
export const FAST_WEBHOOK_ENV: Record<string, string> = {
  WEBHOOK_RETRY_SCHEDULE: ['0.2', '0.3', ...Array.from({ length: 18 }, () => '0.5')].join(','),
  WEBHOOK_FANOUT_INTERVAL_MS: '50',
  WEBHOOK_DELIVERY_TIMEOUT_MS: '2000',
  WEBHOOK_JOB_EXPIRE_SECONDS: '5',
  WEBHOOK_MAINTENANCE_INTERVAL_SECONDS: '1',
  WEBHOOK_DEGRADED_AFTER_FAILURES: '3',
  WEBHOOK_RATE_LIMIT_PER_SECOND: '1000',
  // A receiver that answers nothing opens its circuit after 20 attempts in a row over 0.3 s, and is probed again soon.
  WEBHOOK_CIRCUIT_FAILING_MS: '300',
  WEBHOOK_CIRCUIT_OPEN_MS: '300',
  WEBHOOK_CIRCUIT_MAX_OPEN_MS: '1000',
};

/** A delivery suite's end: the worker stops first (nothing is delivered after), then the receivers close, then the app. */
export async function stopWithWorker(t: TestApp | undefined, ...receivers: Array<Receiver | undefined>): Promise<void> {
  await t?.app.get(WebhookWorker).stop();
  await Promise.all(receivers.map((receiver) => receiver?.close()));
  await t?.close();
}

/**
 * The test app with FAST_WEBHOOK_ENV (and `env`) and its webhook worker running, for the describe block
 * that calls this (see `useForSuite`): started before its tests; the worker stopped, then the app closed, after.
 */
export function useWorkerApp(env: Record<string, string> = {}): TestApp {
  return useForSuite(
    'the app and its webhook worker',
    async () => {
      const t = await startTestApp({ env: { ...FAST_WEBHOOK_ENV, ...env } });
      await t.app.get(WebhookWorker).start();
      return t;
    },
    (t) => stopWithWorker(t),
  );
}

/** A receiver (see `startReceiver`) for the describe block that calls this: listening before its tests, closed after. */
export function useReceiver(reply?: Receiver['reply']): Receiver {
  return useForSuite('the receiver', () => startReceiver(reply), (receiver) => receiver.close());
}

export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly receivedAt: number;
  readonly path: string;
}

/** An answer; `hang`: none (the request stays open); `reset`: the connection is destroyed without an answer. */
export type Reply = { status: number; headers?: Record<string, string> } | 'hang' | 'reset';

export interface Receiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Requests answered with 2xx. */
  readonly accepted: ReceivedRequest[];
  reply: (request: ReceivedRequest, index: number) => Reply;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback; `reply` decides each answer (default 200). */
export async function startReceiver(reply: Receiver['reply'] = () => ({ status: 200 }), port = 0): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const accepted: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now(), path: req.url ?? '/' };
      requests.push(request);
      const answer = receiver.reply(request, requests.length - 1);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      if (answer.status >= 200 && answer.status < 300) accepted.push(request);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${bound}/hook`,
    requests,
    accepted,
    reply,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

export async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 15_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let memberCounter = 0;

/** A real `workspace-member.created` event through the access context's use case. */
export async function createMemberEvent(t: TestApp, workspaceId: string): Promise<string> {
  const { memberId } = await t.app.get(CreateMemberUseCase).execute({ workspaceId, email: `member-${process.pid}-${++memberCounter}@hooks.test`, accessLevel: 'member' });
  return memberId;
}

/** `count` task.created events of a workspace, each with a task id of its own (`prefix-i-uuid`). */
export const taskEvents = (workspaceId: string, count: number, prefix = 'task'): DomainEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    eventType: 'task.created',
    workspaceId,
    id: { workspace_id: workspaceId, task_id: `${prefix}-${i}-${randomUUID()}` },
    actor: { type: 'system' as const, id: null },
  }));

/** Records events as another context would: inside a transaction, through the outbox. */
export async function recordEvents(t: TestApp, ...events: DomainEvent[]): Promise<void> {
  await t.app.get(TransactionRunner).run(() => t.app.get(EventOutbox).record(...events));
}

export function hexSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Verifies the Standard Webhooks headers with the reference library; returns the parsed body. */
export function verifyStandard(secret: string, request: ReceivedRequest): unknown {
  return new Webhook(secret, { format: 'raw' }).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}

export interface CreatedWebhook {
  readonly id: string;
  readonly secret: string;
}

export async function createWebhook(t: TestApp, token: string, targetUrl: string, subscriptions: unknown[]): Promise<CreatedWebhook> {
  const response = await t
    .http()
    .post('/v2/webhooks')
    .set('Authorization', `Bearer ${token}`)
    .send({ data: { target_url: targetUrl, subscriptions } });
  if (response.status !== 200) throw new Error(`create webhook: ${response.status} ${JSON.stringify(response.body)}`);
  return { id: response.body.data.id.webhook_id, secret: response.body.data.secret };
}

/**
 * Waits until every committed outbox event is within fan-out's commit-safe horizon: no transaction
 * older than any of them still runs. The horizon is the cluster's, so a transaction of another
 * suite's database can hold it back; a test about the order of fan-out's passes waits for this
 * before it starts the worker, so that the first pass sees everything committed.
 */
export async function waitForHorizon(t: TestApp, timeoutMs = 10_000): Promise<void> {
  const db = t.app.get(DataSource);
  await waitFor(
    async () => {
      const [row] = (await db.query(`SELECT NOT EXISTS (SELECT 1 FROM event_outbox WHERE tx_id >= pg_snapshot_xmin(pg_current_snapshot())) AS past`)) as Array<{ past: boolean }>;
      return row.past;
    },
    timeoutMs,
    'every committed outbox event to be within the commit horizon',
  );
}

/**
 * Waits until fan-out has consumed every committed outbox event, so that every delivery those
 * events will ever cause exists (asserting on absence needs this, not a sleep).
 */
export async function waitForFanOut(t: TestApp, timeoutMs = 20_000): Promise<void> {
  const db = t.app.get(DataSource);
  await waitFor(
    async () => {
      const [row] = (await db.query(
        `SELECT NOT EXISTS (SELECT 1 FROM event_outbox e, webhook_dispatch_cursor c
           WHERE c.consumer = 'webhooks' AND (e.tx_id, e.id) > (c.last_tx_id, c.last_event_id)) AS done`,
      )) as Array<{ done: boolean }>;
      return row.done;
    },
    timeoutMs,
    'fan-out to consume the outbox',
  );
}

/** Deliveries of a webhook straight from the log table: [status, attempts] per delivery. */
export async function deliveryRows(t: TestApp, webhookId: string): Promise<Array<{ id: string; status: string; attempts: number; event_type: string }>> {
  return t.app.get(DataSource).query(`SELECT id, status, attempts, event_type FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq`, [webhookId]);
}

/** JSON with sorted keys: equal values give equal strings whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Sorted canonical forms, for comparing collections of ids regardless of order and key order. */
export function canonicalSet(values: readonly unknown[]): string[] {
  return values.map(canonicalJson).sort();
}

/** One request per `webhook-id` (deliveries are at least once: a retry may repeat one). */
export function uniqueDeliveries(requests: readonly ReceivedRequest[]): ReceivedRequest[] {
  const seen = new Map<string, ReceivedRequest>();
  for (const request of requests) {
    const id = String(request.headers['webhook-id']);
    if (!seen.has(id)) seen.set(id, request);
  }
  return [...seen.values()];
}

export function eventsOf(request: ReceivedRequest): Array<Record<string, unknown>> {
  return (JSON.parse(request.body) as { events: Array<Record<string, unknown>> }).events;
}
