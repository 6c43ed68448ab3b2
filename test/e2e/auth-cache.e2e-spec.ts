import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { RevokeTokenUseCase } from '@workbase/access';
import { createLogger } from '@workbase/shared/http';
import { CacheInvalidations, PROBE_DEADLINE_MS, PROBE_INTERVAL_MS, SILENT_PROBE_INTERVAL_MS, withDatabase } from '@workbase/shared/persistence';
import { Client } from 'pg';
import request from 'supertest';
import { createApp } from '../../apps/api/src/app.factory';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import { within } from '../support/timing';

/**
 * Token grants are cached per process and dropped, in every process, when tokens, members or
 * workspaces change. Two apps on one database stand for two replicas: each has its own pool,
 * cache and listening connection. `/v2/self` is answered by each app's own introspection.
 */
describe('token grant cache across replicas', () => {
  let t: TestApp;
  let replica: NestExpressApplication;
  let ws: TestWorkspace;
  let pg: Client;

  beforeAll(async () => {
    t = await startTestApp();
    replica = await createApp(t.config, t.database.url, createLogger('silent'));
    ws = await t.createWorkspace();
    pg = new Client({ connectionString: t.database.url });
    await pg.connect();
  });
  afterAll(async () => {
    await pg.end();
    await replica.close();
    await t.close();
  });

  const selfOn = async (app: NestExpressApplication, token: string) =>
    (await request(app.getHttpServer()).get('/v2/self').set('Authorization', `Bearer ${token}`).expect(200)).body as { active: boolean };

  it('refuses a token revoked through one replica on the other within a second', async () => {
    const token = await t.tokenFor(ws.workspaceId, ['record_permission:read']);
    expect((await selfOn(replica, token)).active).toBe(true);
    expect(await t.app.get(RevokeTokenUseCase).execute(token)).not.toBeNull();
    expect(await within(1000, async () => !(await selfOn(replica, token)).active)).toBeLessThan(1000);
  });

  it('refuses the tokens of a member suspended through one replica on the other within a second', async () => {
    const memberId = await t.createMember(ws.workspaceId, `m-${Date.now()}@example.com`);
    const token = await t.tokenFor(ws.workspaceId, ['record_permission:read'], { memberId });
    expect((await selfOn(replica, token)).active).toBe(true);
    await pg.query(`UPDATE workspace_members SET state = 'suspended' WHERE workspace_id = $1 AND id = $2`, [ws.workspaceId, memberId]);
    await within(1000, async () => !(await selfOn(replica, token)).active);
  });

  it('never answers from a grant its own process just revoked', async () => {
    // The revoking COMMIT returns only after this process's pooled session received the notice,
    // so the next request cannot race the dedicated connection's delivery. To show that it does
    // not rely on that delivery, the dedicated sessions are frozen (SIGSTOP; the server runs on
    // this machine in the test setups) while the process revokes and asks again.
    // This database's sessions only: the cluster also serves the other test files running now.
    const listeners = (await pg.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'workbase-cache-invalidations' AND datname = current_database()`)).rows.map((row: { pid: number }) => row.pid);
    expect(listeners.length).toBeGreaterThanOrEqual(2);
    const tokens = await Promise.all(Array.from({ length: 10 }, () => t.tokenFor(ws.workspaceId, ['record_permission:read'])));
    for (const token of tokens) expect((await selfOn(t.app, token)).active).toBe(true);
    for (const pid of listeners) process.kill(pid, 'SIGSTOP');
    try {
      for (const token of tokens) {
        expect(await t.app.get(RevokeTokenUseCase).execute(token)).not.toBeNull();
        expect((await selfOn(t.app, token)).active).toBe(false);
      }
    } finally {
      for (const pid of listeners) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // already gone: nothing to resume
        }
      }
    }
  });
  it('bypasses every cache while its listening connection, though connected, hears nothing, and says so once', async () => {
    // A listening connection that is up but deaf, as behind a transaction-mode pooler: here it
    // LISTENs in another database of the same server, where no notification of this one arrives.
    const deafDatabase = `deaf_${Date.now()}`;
    await pg.query(`CREATE DATABASE ${deafDatabase}`);
    // Every logger's warnings, each with the logger that said it: the other two apps' listeners
    // (frozen by the test before, on a loaded shared cluster) may warn meanwhile; only the deaf app's count.
    const said: Array<[Logger, string]> = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(function (this: Logger, message: unknown) {
      said.push([this, String(message)]);
    });
    const deaf = await createApp({ ...t.config, databaseDirectUrl: withDatabase(t.database.url, deafDatabase) }, t.database.url, createLogger('silent'));
    const deafLogger = (deaf.get(CacheInvalidations) as unknown as { logger: Logger }).logger;
    const warnings = () => said.filter(([logger]) => logger === deafLogger).map(([, message]) => message);
    try {
      const token = await t.tokenFor(ws.workspaceId, ['record_permission:read']);
      expect((await selfOn(deaf, token)).active).toBe(true);
      // Long enough for several probes to go unanswered: the caches never go live, and one WARN names the cause.
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS * 2 + PROBE_DEADLINE_MS));
      expect(deaf.get(CacheInvalidations).isLive).toBe(false);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatch(/not received its own notification within \d+ ms.*DATABASE_DIRECT_URL.*caches bypassed/);
      // Revoked with no notice at all: a cache would still hold the grant; the bypass reads the database.
      await pg.query('ALTER TABLE api_tokens DISABLE TRIGGER api_tokens_invalidate_auth');
      try {
        await pg.query(`UPDATE api_tokens SET revoked_at = now() WHERE token_hash = sha256($1::bytea)`, [Buffer.from(token)]);
        expect((await selfOn(deaf, token)).active).toBe(false);
      } finally {
        await pg.query('ALTER TABLE api_tokens ENABLE TRIGGER api_tokens_invalidate_auth');
      }
      // The same process with a listener that hears proves its path within a probe's round trip.
      expect(replica.get(CacheInvalidations).isLive).toBe(true);
    } finally {
      warn.mockRestore();
      await deaf.close();
      await pg.query(`DROP DATABASE IF EXISTS ${deafDatabase} WITH (FORCE)`);
    }
  });

  it('stops serving from its caches when its listening session goes silent, and serves again once it hears its probe', async () => {
    const listeners = (await pg.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'workbase-cache-invalidations' AND datname = current_database()`)).rows.map((row: { pid: number }) => row.pid);
    expect(replica.get(CacheInvalidations).isLive).toBe(true);
    // Frozen backends: the connections stay up, but no notification reaches either process.
    for (const pid of listeners) process.kill(pid, 'SIGSTOP');
    try {
      const silentAfter = await within(PROBE_INTERVAL_MS * 2 + PROBE_DEADLINE_MS + 1000, async () => !replica.get(CacheInvalidations).isLive);
      expect(silentAfter).toBeGreaterThan(0);
    } finally {
      for (const pid of listeners) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // already gone: nothing to resume
        }
      }
    }
    await within(SILENT_PROBE_INTERVAL_MS + 1000, async () => replica.get(CacheInvalidations).isLive);
  });

  it('serves grants from memory, trusts none while its listening connection is down, and empties the cache', async () => {
    const token = await t.tokenFor(ws.workspaceId, ['record_permission:read']);
    expect((await selfOn(replica, token)).active).toBe(true);
    await pg.query('ALTER TABLE api_tokens DISABLE TRIGGER api_tokens_invalidate_auth');
    try {
      await pg.query(`UPDATE api_tokens SET revoked_at = now() WHERE token_hash = sha256($1::bytea)`, [Buffer.from(token)]);
      // Revoked without a notice: no lookup happens, the replica answers from its cache.
      expect((await selfOn(replica, token)).active).toBe(true);
      await pg.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'workbase-cache-invalidations' AND datname = current_database()`);
      await within(2000, async () => !replica.get(CacheInvalidations).isLive);
      expect((await selfOn(replica, token)).active).toBe(false);
      // Back, with an empty cache: the revocation it was never told of is seen.
      await within(5000, async () => replica.get(CacheInvalidations).isLive);
      expect((await selfOn(replica, token)).active).toBe(false);
    } finally {
      await pg.query('ALTER TABLE api_tokens ENABLE TRIGGER api_tokens_invalidate_auth');
    }
  });
});
