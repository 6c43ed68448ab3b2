import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createLogger } from '@workbase/shared/http';
import { WebhookWorker } from '@workbase/webhooks';
import { Client } from 'pg';
import request from 'supertest';
import { createApp } from '../../apps/api/src/app.factory';
import { cliJson, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, type TestApp } from '../support/test-app';
import { createMemberEvent, createWebhook, FAST_WEBHOOK_ENV, waitForHorizon } from './webhooks.helpers';
import { ALL_AUDIT_ENTRIES } from '../support/audit';

/** Every table of the backed-up schemas (partitions too), with a digest of its rows in a stable order, and every sequence. */
async function snapshot(url: string): Promise<{ tables: Record<string, { rows: number; digest: string }>; sequences: Record<string, string> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const names = (
      await client.query<{ name: string }>(
        `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname IN ('public', 'pgboss') AND c.relkind = 'r' ORDER BY 1`,
      )
    ).rows.map((row) => row.name);
    const tables: Record<string, { rows: number; digest: string }> = {};
    for (const name of names) {
      // The backup's and the restore's own audit entries are written after the snapshot and after the load (checked apart).
      const own = name === 'public.audit_log' || name === 'public.audit_pending' ? ` WHERE t.action NOT IN ('cli.backup', 'cli.restore')` : '';
      const { rows, digest } = (
        await client.query<{ rows: number; digest: string }>(`SELECT count(*)::int AS rows, coalesce(md5(string_agg(to_json(t)::text, E'\\n' ORDER BY to_json(t)::text)), '-') AS digest FROM ONLY ${name} t${own}`)
      ).rows[0];
      tables[name] = { rows, digest };
    }
    const sequences: Record<string, string> = {};
    for (const { name } of (await client.query<{ name: string }>(`SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'S' AND n.nspname IN ('public', 'pgboss') AND c.relname <> 'audit_pending_entry_no_seq'`)).rows) {
      sequences[name] = (await client.query(`SELECT last_value::text || '/' || is_called AS v FROM ${name}`)).rows[0].v;
    }
    return { tables, sequences };
  } finally {
    await client.end();
  }
}

describe('cli backup and restore', () => {
  let t: TestApp;
  let target: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ env: FAST_WEBHOOK_ENV });
    target = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'workbase-backup-'));
  });
  afterAll(async () => {
    await t?.close();
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips every table, the delivery queue and the sequences into another database', async () => {
    const ws = await t.createWorkspace('backup-source');
    const as = { Authorization: `Bearer ${ws.token}` };
    for (const name of ['Acme', 'Ünïcode “quotes” \\ back\\slash', "O'Brien & Sons"]) {
      await t.http().post('/v2/objects/companies/records').set(as).send({ data: { values: { name, domains: [`${name.length}.example`] } } }).expect(200);
    }
    const person = await t.http().post('/v2/objects/people/records').set(as).send({ data: { values: { email_addresses: ['ada@example.test'] } } }).expect(200);
    await t.http().post('/v2/notes').set(as).send({ data: { parent_object: 'people', parent_record_id: person.body.data.id.record_id, title: 'Note', format: 'plaintext', content: 'line one\nline two' } }).expect(200);
    // A file in PostgreSQL storage: three 1 MiB-or-less chunks of bytes that are not text.
    await t.http().post('/v2/files/upload').set(as).field('object', 'people').field('record_id', person.body.data.id.record_id).attach('file', randomBytes(2 * 1024 * 1024 + 5), 'backup.bin').expect(201);
    // The queue: a webhook whose deliveries sit in pg-boss (the receiver does not exist; nothing is sent before the backup).
    const worker = t.app.get(WebhookWorker);
    await worker.start();
    await createWebhook(t, ws.token, 'http://127.0.0.1:9/hook', [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    await createMemberEvent(t, ws.workspaceId);
    // Fan-out reads behind the cluster's commit horizon, which another suite's open transaction
    // (on the shared PostgreSQL of CI's second pass) can hold back: without this, it may see nothing.
    await waitForHorizon(t);
    await worker.fanOutNow();
    await worker.stop();

    const file = path.join(dir, 'source.backup.gz');
    const before = await snapshot(t.database.url);
    const backup = cliJson(await runCli(t.database.url, 'backup', file));
    expect(backup).toEqual({ file, tables: expect.any(Number), rows: expect.any(Number), migrations: expect.any(Number) });
    expect(backup.rows).toBeGreaterThan(50);

    const restored = cliJson(await runCli(target.url, 'restore', file));
    expect(restored).toEqual({ file, tables: backup.tables, rows: backup.rows, migrations_applied_after: [] });

    const after = await snapshot(target.url);
    // Not vacuous: the source had rows where it matters, the queue included.
    for (const table of ['public.records', 'public.record_values', 'public.notes', 'public.files', 'public.file_chunks', 'public.webhooks', 'public.event_outbox', 'public.api_tokens', 'public.webhook_deliveries', 'pgboss.queue', 'pgboss.version']) {
      expect({ table, rows: before.tables[table]?.rows ?? 0 }).toEqual({ table, rows: expect.any(Number) });
      expect(before.tables[table].rows).toBeGreaterThan(0);
    }
    expect(Object.keys(after.tables)).toEqual(Object.keys(before.tables));
    for (const table of Object.keys(before.tables)) expect({ table, ...after.tables[table] }).toEqual({ table, ...before.tables[table] });
    expect(after.sequences).toEqual(before.sequences);
    // Each workspace's log names the backup (in the source) and the restore (in the target), with the file and the OS user.
    const ownEntries = async (url: string, action: string) => {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(`SELECT w.id AS workspace_id, audit_entries.target_kind, audit_entries.target_id, audit_entries.actor FROM workspaces w LEFT JOIN ${ALL_AUDIT_ENTRIES} ON audit_entries.workspace_id = w.id AND audit_entries.action = $1 ORDER BY w.id`, [action])).rows;
      } finally {
        await client.end();
      }
    };
    for (const [url, action] of [[t.database.url, 'cli.backup'], [target.url, 'cli.restore']] as const) {
      const entries = await ownEntries(url, action);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) expect(entry).toEqual(expect.objectContaining({ target_kind: 'backup-file', target_id: file, actor: expect.objectContaining({ type: 'cli', cli_os_user: expect.any(String) }) }));
    }

    // The restored database serves: the token of the source works against it.
    const replica = await createApp(t.config, target.url, createLogger('silent'));
    try {
      const self = await request(replica.getHttpServer()).get('/v2/self').set(as).expect(200);
      expect(self.body).toMatchObject({ active: true, workspace_slug: 'backup-source' });
    } finally {
      await replica.close();
    }
  }, 180_000);

  it('refuses what it must, with a message naming the problem and nothing changed', async () => {
    const file = path.join(dir, 'source.backup.gz');
    const notABackup = path.join(dir, 'notes.txt');
    writeFileSync(notABackup, 'just some text\n');
    const cases: Array<[string[], string, RegExp]> = [
      [['backup'], t.database.url, /backup takes exactly one file/],
      [['restore', file, 'extra'], target.url, /restore takes exactly one file/],
      [['backup', file, '--replace'], t.database.url, /replace/],
      [['restore', path.join(dir, 'missing.gz')], target.url, /missing\.gz does not exist/],
      [['restore', notABackup], target.url, /notes\.txt is not a Workbase backup/],
      [['restore', file], t.database.url, /in use by running Workbase processes .*stop the API and the workers first/],
      [['restore', file], target.url, /already holds workspaces: pass --replace/],
    ];
    const before = await snapshot(target.url);
    const sourceBefore = await snapshot(t.database.url);
    // A running worker (its listening connection stays open) on the source database.
    await t.app.get(WebhookWorker).start();
    try {
      for (const [args, url, message] of cases) {
        const result = await runCli(url, ...args);
        expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
        expect({ args, stderr: result.stderr }).toEqual({ args, stderr: expect.stringMatching(message) });
      }
    } finally {
      await t.app.get(WebhookWorker).stop();
    }
    expect((await snapshot(t.database.url)).tables['public.workspaces']).toEqual(sourceBefore.tables['public.workspaces']);
    expect(await snapshot(target.url)).toEqual(before);
    // With --replace, the same restore goes through.
    expect(cliJson(await runCli(target.url, 'restore', file, '--replace'))).toMatchObject({ migrations_applied_after: [] });
    expect(await snapshot(target.url)).toEqual(before);
  }, 180_000);
});
