import { AuditLogQueries, SealAuditEntriesUseCase } from '@workbase/audit';
import { DataSource } from 'typeorm';
import { freePort, killService, type ServiceProcess, startService } from '../support/processes';
import { useTestApp, useWorkspace } from '../support/suite';
import { ALL_AUDIT_ENTRIES } from '../support/audit';

/**
 * The audit entry is written in the same statement as its change: a real API process killed with
 * SIGKILL in the middle of concurrent writes leaves every committed record with its entry, no
 * entry without its record, and, once the sealer has run, an intact chain over all of them.
 */
describe('audit log under kill -9', () => {
  jest.setTimeout(240_000);
  const t = useTestApp();
  const ws = useWorkspace(t, 'audit-crash');
  let api: ServiceProcess | undefined;
  afterAll(() => killService(api));

  it('a committed change always has its entry, a change cut short has neither', async () => {
    const port = await freePort();
    api = await startService('api', { DATABASE_URL: t.database.url, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, RUN_WORKER: 'false', LOG_LEVEL: 'warn' });
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (lane: number) => {
      for (let i = 0; !stop; i += 1) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/v2/objects/companies/records`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${ws.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ data: { values: { name: `Lane ${lane} #${i}`, domains: [`l${lane}-${i}.crash.test`] } } }),
          });
          if (res.status === 200) acknowledged.push(((await res.json()) as { data: { id: { record_id: string } } }).data.id.record_id);
        } catch {
          return; // the process is gone
        }
      }
    };
    const lanes = Array.from({ length: 6 }, (_, lane) => writer(lane));
    const deadline = Date.now() + 60_000;
    while (acknowledged.length < 40 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    api.child.kill('SIGKILL');
    expect(await api.exited()).toEqual({ code: null, signal: 'SIGKILL' });
    stop = true;
    await Promise.all(lanes);

    // PostgreSQL rolls back the transactions of the dead process's connections once it sees them closed.
    const db = t.app.get(DataSource);
    const until = Date.now() + 30_000;
    for (;;) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' AND application_name NOT LIKE 'workbase-test%'`);
      if (n === 0 || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const records: string[] = (await db.query(`SELECT r.id::text AS id FROM records r JOIN objects o ON o.id = r.container_id AND o.workspace_id = r.workspace_id WHERE r.workspace_id = $1 AND o.api_slug = 'companies'`, [ws.workspaceId])).map((row: { id: string }) => row.id);
    const audited: string[] = (await db.query(`SELECT target_id FROM ${ALL_AUDIT_ENTRIES} WHERE workspace_id = $1 AND action = 'record.created'`, [ws.workspaceId])).map((row: { target_id: string }) => row.target_id);
    expect(new Set(records)).toEqual(new Set(audited));
    expect(records.length).toBe(audited.length);
    for (const id of acknowledged) expect(records).toContain(id);
    // Entries are written unsealed; the sealer chains every committed one, none is left behind.
    expect((await t.app.get(AuditLogQueries).verify(ws.workspaceId)).firstBreak).toBeNull();
    // The sealer takes what is behind the commit horizon, which is the whole cluster's: on a shared
    // server another suite's open transaction holds it back a while (the log's documented lag).
    const counts = async () =>
      (await db.query(`SELECT count(*) FILTER (WHERE seq IS NULL)::int AS unsealed, count(*)::int AS total FROM ${ALL_AUDIT_ENTRIES} WHERE workspace_id = $1`, [ws.workspaceId]))[0] as { unsealed: number; total: number };
    const sealUntil = Date.now() + 30_000;
    let { unsealed, total } = await counts();
    while (unsealed > 0 && Date.now() < sealUntil) {
      await t.app.get(SealAuditEntriesUseCase).sealPending();
      ({ unsealed, total } = await counts());
      if (unsealed > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(unsealed).toBe(0);
    const verified = await t.app.get(AuditLogQueries).verify(ws.workspaceId);
    expect(verified).toEqual(expect.objectContaining({ firstBreak: null, entriesChecked: total }));
  });
});
