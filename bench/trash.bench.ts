/**
 * Issue 31 part 3: the cost of the trash. A person with 10 list entries, 10 notes and 10 linked
 * tasks (plus a comment thread) is deleted through `DELETE /v2/objects/people/records/{id}` (which
 * now keeps it in the trash) and brought back through `POST /v2/trash/records/{id}/restore`; the
 * target is < 50 ms p95 for each. Side by side in the same rounds, the bare baseline on the same
 * rows with `pg`: a `DELETE FROM records` of the person and its entries (the foreign keys' cascade
 * takes the rest; no trash, no events, no HTTP), and the bare re-insert of the same rows from
 * their JSON in one transaction (what a restore has to write at the least). The rounds alternate
 * the four steps on the same people, so the machine's drift falls on all of them alike.
 *
 *   npm run bench:trash                       (BENCH_ROUNDS=60, BENCH_PEOPLE=5)
 *   BENCH_ROUNDS=10 npm run bench:trash       (smoke run)
 */
import { execSync } from 'node:child_process';
import { Client } from 'pg';
import { DeleteRecordUseCase } from '../libs/records/src/application/delete-record.use-case';
import { captureStatement, TRASH_PLANS } from '../libs/trash/src/domain/trash-plan';
import { appendResults, jsonClient, runBench } from './support';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 5);
const FAN_OUT = 10;

const percentile = (times: number[], p: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))];
const fmt = (ms: number) => ms.toFixed(1);

runBench({ database: 'workbase_bench_trash', poolSize: 2 }, async (bench, pool) => {
  const call = jsonClient(bench.baseUrl, bench.token);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const loadBefore = execSync('uptime').toString().trim();

  for (let l = 0; l < FAN_OUT; l++) await call('POST', '/v2/lists', { data: { name: `Bench ${l}`, api_slug: `bench_${l}`, parent_object: 'people' } });
  const people: string[] = [];
  for (let p = 0; p < PEOPLE; p++) {
    const person = await call<{ data: { id: { record_id: string } } }>('POST', '/v2/objects/people/records', {
      data: { values: { name: `Bench, Person ${p}`, email_addresses: [`bench-${p}@trash.example`], job_title: 'Analyst' } },
    });
    const id = person.data.id.record_id;
    for (let i = 0; i < FAN_OUT; i++) {
      await call('POST', `/v2/lists/bench_${i}/entries`, { data: { parent_record_id: id, parent_object: 'people', entry_values: {} } });
      await call('POST', '/v2/notes', { data: { parent_object: 'people', parent_record_id: id, title: `Note ${i}`, format: 'plaintext', content: `Note ${i} of person ${p}` } });
      await call('POST', '/v2/tasks', {
        data: { content: `Task ${i}`, format: 'plaintext', deadline_at: null, is_completed: false, linked_records: [{ target_object: 'people', target_record_id: id }], assignees: [] },
      });
    }
    people.push(id);
  }
  out(`${PEOPLE} people, each with ${FAN_OUT} entries, ${FAN_OUT} notes and ${FAN_OUT} linked tasks`);

  const workspaceId = bench.workspaceId;
  const timed = async (work: () => Promise<unknown>) => {
    const start = performance.now();
    await work();
    return performance.now() - start;
  };
  const bareDelete = async (id: string) => {
    await pool.query(`DELETE FROM records WHERE workspace_id = $1 AND (id = $2 OR parent_record_id = $2)`, [workspaceId, id]);
  };
  const bareRestore = async (rows: Record<string, unknown[]>) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (const share of TRASH_PLANS.records) {
        const saved = rows[share.table] ?? [];
        if (saved.length === 0) continue;
        await client.query(`INSERT INTO ${share.table} OVERRIDING SYSTEM VALUE SELECT * FROM jsonb_populate_recordset(NULL::${share.table}, $1::jsonb)`, [JSON.stringify(saved)]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };

  // The delete as it was before the trash: the same use case with its trash unplugged (a bench-only
  // switch on the instance), so that both deletes run in one process, one round after the other.
  const deletes = bench.app.get(DeleteRecordUseCase) as unknown as { trash: unknown };
  const trash = deletes.trash;
  const withoutTrash = async <T>(work: () => Promise<T>): Promise<T> => {
    deletes.trash = null;
    try {
      return await work();
    } finally {
      deletes.trash = trash;
    }
  };

  // Statements each API step sends (pg.Client#query counted around one call; the bench's own pool is idle meanwhile).
  const countStatements = async (work: () => Promise<unknown>): Promise<number> => {
    const query = Client.prototype.query;
    let count = 0;
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      count++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof Client.prototype.query;
    try {
      await work();
    } finally {
      Client.prototype.query = query;
    }
    return count;
  };
  const statements = {
    delete: await countStatements(() => call('DELETE', `/v2/objects/people/records/${people[0]}`)),
    restore: await countStatements(() => call('POST', `/v2/trash/records/${people[0]}/restore`, {})),
  };
  out(`statements: delete ${statements.delete}, restore ${statements.restore} (BEGIN and COMMIT included)`);

  const times = { deleteApi: [] as number[], restoreApi: [] as number[], deleteNoTrash: [] as number[], deleteBare: [] as number[], restoreBare: [] as number[], capture: [] as number[] };
  for (let round = -1; round < ROUNDS; round++) {
    const id = people[(round + PEOPLE) % PEOPLE];
    const deleteApi = await timed(() => call('DELETE', `/v2/objects/people/records/${id}`));
    const restoreApi = await timed(() => call('POST', `/v2/trash/records/${id}/restore`, {}));
    const captureStart = performance.now();
    const [{ rows }] = (await pool.query(captureStatement('records'), [workspaceId, id])).rows as Array<{ rows: Record<string, unknown[]> }>;
    const capture = performance.now() - captureStart;
    if (rows.records.length !== 1 + FAN_OUT || rows.notes.length !== FAN_OUT || rows.task_linked_records.length !== FAN_OUT) throw new Error(`restore lost rows: ${JSON.stringify(Object.fromEntries(Object.entries(rows).map(([t, r]) => [t, r.length])))}`);
    const deleteNoTrash = await withoutTrash(() => timed(() => call('DELETE', `/v2/objects/people/records/${id}`)));
    await bareRestore(rows);
    const deleteBare = await timed(() => bareDelete(id));
    const restoreBare = await timed(() => bareRestore(rows));
    if (round < 0) continue; // warm-up
    times.deleteNoTrash.push(deleteNoTrash);
    times.capture.push(capture);
    times.deleteApi.push(deleteApi);
    times.restoreApi.push(restoreApi);
    times.deleteBare.push(deleteBare);
    times.restoreBare.push(restoreBare);
  }
  const loadAfter = execSync('uptime').toString().trim();

  const row = (label: string, api: number[], bare: number[]) => {
    const [a50, a95, b50, b95] = [percentile(api, 0.5), percentile(api, 0.95), percentile(bare, 0.5), percentile(bare, 0.95)];
    return `| ${label} | ${fmt(a50)} | **${fmt(a95)}** | ${fmt(b50)} | ${fmt(b95)} | ${(a50 / b50).toFixed(1)}× | ${a95 < 50 ? 'met' : 'NOT met'} |`;
  };
  const lines = [
    '',
    `## Issue 31: trash, delete and restore of a record with ${FAN_OUT} entries, notes and tasks (${new Date().toISOString().slice(0, 10)}, bench/trash.bench.ts)`,
    '',
    `${ROUNDS} rounds (after one warm-up) over ${PEOPLE} people, each round on the same person: the API delete, the API restore, the API delete with the trash unplugged (the rows put back bare), the bare delete, the bare re-insert.`,
    'API in process (swc), rate limits off, no worker; embedded PostgreSQL (fsync off). The bare side is `pg` on the same rows: `DELETE FROM records` (cascade), and the saved rows re-inserted table by table in one transaction.',
    `Load before: \`${loadBefore}\`; after: \`${loadAfter}\`.`,
    '',
    '| step | API p50 ms | API p95 ms | bare p50 ms | bare p95 ms | API / bare (p50) | < 50 ms p95 |',
    '|---|---|---|---|---|---|---|',
    row('delete (moves to the trash)', times.deleteApi, times.deleteBare),
    row('restore', times.restoreApi, times.restoreBare),
    row('delete without the trash (same batched path, trash unplugged)', times.deleteNoTrash, times.deleteBare),
    '',
    `Statements sent by the API (BEGIN/COMMIT included): delete ${statements.delete}, restore ${statements.restore}.`,
    `The trash's own statement on the delete path (reading the ${FAN_OUT * 3 + 1}-item graph as JSON, alone through \`pg\`): p50 ${fmt(percentile(times.capture, 0.5))} ms, p95 ${fmt(percentile(times.capture, 0.95))} ms.`,
    `Delete with the trash / delete without it (p50): ${(percentile(times.deleteApi, 0.5) / percentile(times.deleteNoTrash, 0.5)).toFixed(2)}; (p95): ${(percentile(times.deleteApi, 0.95) / percentile(times.deleteNoTrash, 0.95)).toFixed(2)}.`,
  ];
  for (const line of lines) out(line);
  appendResults(lines);
});
