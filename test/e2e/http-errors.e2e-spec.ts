import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Module, Param } from '@nestjs/common';
import { createLogger, Public } from '@workbase/shared/http';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../apps/api/src/app.factory';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';

/** Fails the way a bug would: an error nobody mapped, carrying internals that must not leak. */
@ApiExcludeController() // a probe of this suite, not part of the published contract
@Controller('v2/failing-probe')
class FailingProbeController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  @Public()
  fail(): never {
    throw new Error('connection string postgres://secret@db leaked in a stack');
  }

  /** A value the edge forgot to check, refused by PostgreSQL itself. */
  @Get('unchecked/:kind')
  @Public()
  async unchecked(@Param('kind') kind: string): Promise<unknown> {
    const [sql, value] = kind === 'nul' ? ['SELECT $1::text AS v', 'a\u0000b'] : kind === 'range' ? ['SELECT $1::int AS v', '99999999999'] : ['SELECT $1::uuid AS v', 'not-a-uuid'];
    return this.dataSource.query(sql, [value]);
  }
}

@Module({ controllers: [FailingProbeController] })
class FailingProbeModule {}

const errorBody = (status: number, type: string, code: string) => ({ status_code: status, type, code, message: expect.any(String) });

describe('the REST error body on every failure', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const auth = () => ({ Authorization: `Bearer ${ws.token}` });

  beforeAll(async () => {
    t = await startTestApp({ imports: [FailingProbeModule], env: { BODY_LIMIT: '2kb' } });
    ws = await t.createWorkspace();
  });
  afterAll(() => t.close());

  it('answers an unknown route with a 404 in the error shape', async () => {
    const res = await t.http().get('/v2/no-such-thing').set(auth()).expect(404);
    expect(res.body).toEqual(errorBody(404, 'invalid_request_error', 'not_found'));
    expect(res.body.message).toContain('/v2/no-such-thing');
  });

  it('answers malformed JSON with a 400 that says so', async () => {
    const res = await t.http().post('/v2/objects').set(auth()).set('Content-Type', 'application/json').send('{"data": {"api_slug": ').expect(400);
    expect(res.body).toEqual(errorBody(400, 'invalid_request_error', 'validation_type'));
    expect(res.body.message).toMatch(/not valid JSON/);
  });

  it('answers a body over the size limit with a 413', async () => {
    const res = await t.http().post('/v2/objects').set(auth()).send({ data: { api_slug: 'x', singular_noun: 'x'.repeat(4096), plural_noun: 'xs' } }).expect(413);
    expect(res.body).toEqual(errorBody(413, 'invalid_request_error', 'validation_type'));
  });

  it('answers a validation failure with a 400 naming the field', async () => {
    const res = await t.http().post('/v2/objects').set(auth()).send({ data: { api_slug: 42, singular_noun: 'Thing', plural_noun: 'Things' } }).expect(400);
    expect(res.body).toEqual(errorBody(400, 'invalid_request_error', 'validation_type'));
    expect(res.body.message).toContain('api_slug');
  });

  it('answers auth failures with 401 and 403 of type auth_error', async () => {
    const anonymous = await t.http().get('/v2/objects').expect(401);
    expect(anonymous.body).toEqual(errorBody(401, 'auth_error', 'unauthorized'));
    const narrow = await t.tokenFor(ws.workspaceId, ['note:read']);
    const forbidden = await t.http().get('/v2/objects').set('Authorization', `Bearer ${narrow}`).expect(403);
    expect(forbidden.body).toEqual(errorBody(403, 'auth_error', 'unauthorized'));
    expect(forbidden.body.message).toContain('object_configuration:read');
  });

  it('answers a value the database refuses (NUL, out of range, malformed) with a 400, never a 500', async () => {
    for (const kind of ['nul', 'range', 'uuid']) {
      const res = await t.http().get(`/v2/failing-probe/unchecked/${kind}`).expect(400);
      expect(res.body).toEqual(errorBody(400, 'invalid_request_error', 'validation_type'));
      expect(res.body.message).toMatch(/^The request holds an invalid value: /);
    }
  });

  it('answers a malformed or oversized body at the OAuth JSON endpoints in RFC 6749 form, uncached', async () => {
    for (const endpoint of ['/oauth/token', '/oauth/introspect', '/oauth/revoke']) {
      const malformed = await t.http().post(endpoint).set('Content-Type', 'application/json').send('{"grant_type": ').expect(400);
      expect(malformed.body).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/not valid JSON/) });
      expect(malformed.headers['cache-control']).toBe('no-store');
    }
    const oversized = await t.http().post('/oauth/token').type('form').send({ grant_type: 'authorization_code', code: 'x'.repeat(200 * 1024) }).expect(413);
    expect(oversized.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it('answers an unexpected failure with a 500 that leaks nothing', async () => {
    const res = await t.http().get('/v2/failing-probe').expect(500);
    expect(res.body).toEqual({ status_code: 500, type: 'internal_server_error', code: 'internal_error', message: 'An unexpected error occurred.' });
    expect(res.text).not.toMatch(/secret|postgres:|stack|at /);
  });
});

describe('rate limits per token', () => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_READS_PER_SECOND: '5', RATE_LIMIT_WRITES_PER_SECOND: '2' } });
    ws = await t.createWorkspace();
  });
  afterAll(() => t.close());

  /**
   * Waits for the next one-second window to begin (windows are aligned on the clock), so that a
   * burst lands in one window instead of straddling two.
   */
  const atWindowStart = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 15));

  /**
   * Runs `burst` from the start of a window, again (up to five tries) while it did not also end in
   * that window: on a loaded machine a dozen requests can take longer than a second, and a burst
   * over two windows may spend two budgets (a fresh-clone CI run saw 10 of 12 reads pass so).
   */
  async function inOneWindow<T>(burst: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      await atWindowStart();
      const window = Math.floor(Date.now() / 1000);
      const result = await burst();
      if (Math.floor(Date.now() / 1000) === window || attempt === 5) return result;
    }
  }

  /** Sends `count` requests at once and returns their statuses. */
  async function burst(count: number, send: () => Promise<{ status: number; headers: Record<string, string>; body: unknown }>) {
    return Promise.all(Array.from({ length: count }, send));
  }

  it('answers reads past the limit with a 429 rate_limit_error and Retry-After as an HTTP date', async () => {
    const responses = await inOneWindow(() => burst(12, () => t.http().get('/v2/self').set('Authorization', `Bearer ${ws.token}`)));
    const limited = responses.filter((res) => res.status === 429);
    expect(responses.filter((res) => res.status === 200).length).toBeLessThanOrEqual(5);
    expect(limited.length).toBeGreaterThanOrEqual(7);
    expect(limited[0].body).toEqual(errorBody(429, 'rate_limit_error', 'rate_limit_exceeded'));
    const retryAfter = limited[0].headers['retry-after'];
    expect(retryAfter).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    const wait = Date.parse(retryAfter) - Date.now();
    expect(wait).toBeGreaterThan(-1500);
    expect(wait).toBeLessThan(5000);
  });

  it('counts writes apart from reads, and each token apart', async () => {
    const other = await t.tokenFor(ws.workspaceId, ['object_configuration:read-write']);
    const writes = await inOneWindow(() =>
      burst(5, () => t.http().post('/v2/objects').set('Authorization', `Bearer ${other}`).send({ data: { api_slug: 42 } })),
    );
    expect(writes.filter((res) => res.status === 429).length).toBeGreaterThanOrEqual(3);
    // The write limit of that token does not spend the read budget of the first token.
    const read = await t.http().get('/v2/self').set('Authorization', `Bearer ${ws.token}`);
    expect(read.status).toBe(200);
  });

  it('spends one budget per token across every route, not one per route', async () => {
    const paths = ['/v2/self', '/v2/objects', '/v2/lists', '/v2/notes', '/v2/webhooks', '/v2/activities'];
    const responses = await inOneWindow(() => Promise.all(paths.flatMap((path) => [0, 1].map(() => t.http().get(path).set('Authorization', `Bearer ${ws.token}`)))));
    expect(responses.filter((res) => res.status === 429).length).toBeGreaterThanOrEqual(12 - 5);
  });

  it('shares the budget between API processes on the same database', async () => {
    // A second process: the same configuration and database, its own HTTP server and memory.
    // Passport keeps strategies in a process-wide registry, so once the replica is closed the first
    // app's token strategy points at the replica's closed pool: later tests in this describe use
    // only /v2/self, which introspects without passport. (Real replicas are separate processes.)
    const replica = await createApp(t.config, t.database.url, createLogger('silent'));
    try {
      const token = await t.tokenFor(ws.workspaceId, ['object_configuration:read']);
      // The burst starts a window only once the replica is up (starting it takes longer than a window).
      const send = (server: ReturnType<typeof replica.getHttpServer>) => request(server).get('/v2/objects').set('Authorization', `Bearer ${token}`);
      const responses = await inOneWindow(() => Promise.all([...Array.from({ length: 4 }, () => send(t.app.getHttpServer())), ...Array.from({ length: 4 }, () => send(replica.getHttpServer()))]));
      expect(responses.filter((res) => res.status === 200).length).toBeLessThanOrEqual(5);
      expect(responses.filter((res) => res.status === 429).length).toBeGreaterThanOrEqual(3);
    } finally {
      await replica.close();
    }
  });

  it('lets requests through again once the window has passed', async () => {
    await atWindowStart();
    await t.http().get('/v2/self').set('Authorization', `Bearer ${ws.token}`).expect(200);
  });
});

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves liveness and readiness without a token', async () => {
    expect((await t.http().get('/health').expect(200)).body).toEqual({ status: 'ok' });
    expect((await t.http().get('/health/ready').expect(200)).body).toEqual({ status: 'ok', database: 'up' });
  });

  it('serves Prometheus metrics with request durations by route template', async () => {
    const ws = await t.createWorkspace();
    await t.http().get(`/v2/objects/${ws.workspaceId}`).set('Authorization', `Bearer ${ws.token}`).expect(404);
    await t.http().get('/v2/objects/people').set('Authorization', `Bearer ${ws.token}`).expect(200);
    const res = await t.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(/workbase_http_request_duration_seconds_count\{[^}]*method="GET",route="\/v2\/objects\/:object",status="200"[^}]*\} 1/);
    expect(res.text).toMatch(/route="\/v2\/objects\/:object",status="404"/);
    expect(res.text).not.toContain(ws.workspaceId);
    expect(res.text).toMatch(/workbase_db_pool_connections\{[^}]*state="total"/);
    expect(res.text).toContain('workbase_process_cpu_user_seconds_total');
  });

  it('tags every response with a request id, and echoes one the caller sent', async () => {
    const fresh = await t.http().get('/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    const echoed = await t.http().get('/health').set('X-Request-Id', 'caller-chosen-id-123');
    expect(echoed.headers['x-request-id']).toBe('caller-chosen-id-123');
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: 'scrape-me-please-0123' } });
  });
  afterAll(() => t.close());

  it('asks for the metrics token, and refuses workspace tokens', async () => {
    const anonymous = await t.http().get('/metrics').expect(401);
    expect(anonymous.body).toEqual(errorBody(401, 'auth_error', 'unauthorized'));
    const ws = await t.createWorkspace();
    await t.http().get('/metrics').set('Authorization', `Bearer ${ws.token}`).expect(401);
    const scraped = await t.http().get('/metrics').set('Authorization', 'Bearer scrape-me-please-0123').expect(200);
    expect(scraped.text).toContain('workbase_http_request_duration_seconds');
  });
});

describe('metrics in production', () => {
  const scrape = async (env: Record<string, string>, authorization?: string) => {
    const t = await startTestApp({ env: { NODE_ENV: 'production', ...env } });
    try {
      const call = t.http().get('/metrics');
      return await (authorization ? call.set('Authorization', authorization) : call);
    } finally {
      await t.close();
    }
  };

  it('is closed without METRICS_TOKEN, saying what the operator sets', async () => {
    const res = await scrape({});
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorBody(401, 'auth_error', 'unauthorized'));
    expect(res.body.message).toMatch(/METRICS_TOKEN/);
  });

  it('answers its token, and is open only when the operator opts out explicitly', async () => {
    expect((await scrape({ METRICS_TOKEN: 'scrape-me-please-0123' }, 'Bearer scrape-me-please-0123')).status).toBe(200);
    expect((await scrape({ METRICS_TOKEN: 'scrape-me-please-0123' })).status).toBe(401);
    expect((await scrape({ METRICS_PUBLIC: 'true' })).status).toBe(200);
  });
});
