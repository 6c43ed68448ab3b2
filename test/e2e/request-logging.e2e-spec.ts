import { Writable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../apps/api/src/app.factory';
import { useTestApp } from '../support/suite';
import type { TestApp } from '../support/test-app';

interface LogLine {
  readonly level: number;
  readonly msg?: string;
  readonly req?: { id: string; method: string; url: string };
  readonly res?: { statusCode: number };
  readonly responseTime?: number;
}

/** The app with its logs captured as parsed JSON lines, at `level`. */
async function appLoggingAt(t: TestApp, level: string): Promise<{ app: NestExpressApplication; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text.trim()) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  const app = await createApp(t.config, t.database.url, pino({ level }, sink));
  return { app, lines };
}

describe('request logs', () => {
  const t = useTestApp();
  let token: string;

  beforeAll(async () => {
    token = (await t.createWorkspace()).token;
  });

  it('at info, logs failures with their request id, never successes, query strings or tokens', async () => {
    const { app, lines } = await appLoggingAt(t, 'info');
    try {
      await request(app.getHttpServer()).get('/v2/self').set('Authorization', `Bearer ${token}`).expect(200);
      const missing = await request(app.getHttpServer()).get('/v2/objects/nope?secret=1').set('Authorization', `Bearer ${token}`).set('X-Request-Id', 'trace-me-1').expect(404);
      expect(missing.headers['x-request-id']).toBe('trace-me-1');
      const requestLines = lines.filter((line) => line.req);
      expect(requestLines).toEqual([
        expect.objectContaining({ level: 30, msg: 'request completed', req: { id: 'trace-me-1', method: 'GET', url: '/v2/objects/nope' }, res: { statusCode: 404 } }),
      ]);
      expect(requestLines[0].responseTime).toEqual(expect.any(Number));
      expect(JSON.stringify(lines)).not.toContain(token);
    } finally {
      await app.close();
    }
  });

  it('at debug, logs every request with a generated id when the caller sent none or a malformed one', async () => {
    const { app, lines } = await appLoggingAt(t, 'debug');
    try {
      const ok = await request(app.getHttpServer()).get('/health').set('X-Request-Id', 'not valid!').expect(200);
      const line = lines.find((l) => l.req?.url === '/health');
      expect(line).toEqual(expect.objectContaining({ level: 20, res: { statusCode: 200 } }));
      expect(line?.req?.id).toBe(ok.headers['x-request-id']);
      expect(line?.req?.id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await app.close();
    }
  });
});
