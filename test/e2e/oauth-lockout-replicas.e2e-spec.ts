import { createHash } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createLogger } from '@workbase/shared/http';
import { DataSource } from 'typeorm';
import { createApp } from '../../apps/api/src/app.factory';
import type { TestApp, TestWorkspace } from '../support/test-app';
import { Browser, createOAuthApp, startListeningApp } from './oauth-support';

const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery';

/**
 * Sign-in lockout counters live in PostgreSQL, so that every API process sees the same ones.
 * A file of its own: a second app in the same process re-registers the global passport
 * strategies, and once it is closed the first app's bearer authentication would use its closed
 * connection pool, which other OAuth tests rely on.
 */
describe('OAuth sign-in lockout across API processes', () => {
  let t: TestApp & { issuer: string };
  let ws: TestWorkspace;
  let client: { clientId: string; clientSecret: string };
  let replica: NestExpressApplication;
  let replicaBase: string;

  beforeAll(async () => {
    t = await startListeningApp();
    ws = await t.createWorkspace('lockout');
    client = await createOAuthApp(t, [REDIRECT]);
    // A second process: the same configuration and database, its own HTTP server and memory.
    replica = await createApp(t.config, t.database.url, createLogger('silent'));
    await replica.listen(0, '127.0.0.1');
    replicaBase = `http://127.0.0.1:${(replica.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await replica?.close();
    await t?.close();
  });

  const authorizeUrl = () => {
    const url = new URL('/oauth/authorize', t.issuer);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT })) url.searchParams.set(k, v);
    return url.toString();
  };
  const hashOf = (value: string) => createHash('sha256').update(value).digest();

  /** The same sign-in form, posted to either process (the CSRF token is a double-submit cookie). */
  async function browsers(headers: Record<string, string>): Promise<{ fields: Record<string, string>; first: Browser; second: Browser }> {
    const first = new Browser(t.issuer);
    const fields = (await first.get(authorizeUrl(), headers)).form('/oauth/sign-in');
    const second = new Browser(replicaBase);
    for (const [name, value] of first.cookies) second.cookies.set(name, value);
    return { fields, first, second };
  }

  it('locks an email after 10 failures spread over two processes, on both, and keeps only hashes of emails and addresses', async () => {
    await t.createMember(ws.workspaceId, 'shared-lock@example.test', 'member', PASSWORD);
    const from = { 'x-forwarded-for': '192.0.2.77' };
    const { fields, first, second } = await browsers(from);
    // Five wrong passwords on each process: neither would reach 10 on its own.
    for (let attempt = 0; attempt < 10; attempt++) {
      const via = attempt % 2 === 0 ? first : second;
      expect((await via.post('/oauth/sign-in', { ...fields, email: 'shared-lock@example.test', password: `wrong password ${attempt}` }, from)).status).toBe(401);
    }
    for (const via of [first, second]) {
      const right = await via.post('/oauth/sign-in', { ...fields, email: 'Shared-Lock@Example.test', password: PASSWORD }, from);
      expect(right.status).toBe(429);
      expect(right.headers.get('retry-after')).toBe('900');
      expect(right.html).toContain('Too many failed sign-ins');
      expect(via.cookies.has('wb_oauth_session')).toBe(false);
    }

    const rows: Array<{ kind: string; key_hash: Buffer; failures: number }> = await t.app.get(DataSource).query(`SELECT kind, key_hash, failures FROM oauth_sign_in_failures`);
    expect(rows.find((row) => row.kind === 'email' && row.key_hash.equals(hashOf('oauth-sign-in:email:shared-lock@example.test')))?.failures).toBe(10);
    expect(rows.find((row) => row.kind === 'client' && row.key_hash.equals(hashOf('oauth-sign-in:client:192.0.2.77')))?.failures).toBe(10);
    for (const row of rows) {
      expect(row.key_hash).toHaveLength(32);
      expect(row.key_hash.toString('latin1')).not.toMatch(/example\.test|192\.0\.2/);
    }
  });

  it('locks a client address after 30 failures spread over two processes', async () => {
    const from = { 'x-forwarded-for': '192.0.2.88' };
    const { fields, first, second } = await browsers(from);
    for (let attempt = 0; attempt < 30; attempt++) {
      const via = attempt % 2 === 0 ? first : second;
      expect((await via.post('/oauth/sign-in', { ...fields, email: `not an email ${attempt}`, password: PASSWORD }, from)).status).toBe(401);
    }
    for (const via of [first, second]) expect((await via.post('/oauth/sign-in', { ...fields, email: 'nobody@example.test', password: PASSWORD }, from)).status).toBe(429);
  });
});
