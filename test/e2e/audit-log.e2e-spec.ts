import { AuditSealer, SealAuditEntriesUseCase, SweepAuditRetentionUseCase } from '@workbase/audit';
import { MemberProvisioning } from '@workbase/access';
import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { cliJson, runCli } from '../support/cli';
import { bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import { ALL_AUDIT_ENTRIES } from '../support/audit';

interface Entry {
  id: string;
  sequence: string | null;
  action: string;
  request_id: string | null;
  actor: Record<string, unknown>;
  target: { kind: string; id: string; ids: Record<string, unknown> };
  changes: Record<string, { old: unknown; new: unknown }> | null;
  content_hash: string;
  prev_hash: string | null;
  hash: string | null;
}

describe('audit log', () => {
  jest.setTimeout(180_000);
  const t = useTestApp();
  const ws = useWorkspace(t, 'audited');
  const other = useWorkspace(t, 'audited-other');
  const { get, post, put, patch, del, createRecord } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  const entries = async (query = '', token = ws.token): Promise<Entry[]> => (await get(`/v2/audit_log${query}`, token).expect(200)).body.data as Entry[];
  const entryCount = async (workspaceId = ws.workspaceId) => Number((await db().query(`SELECT count(*) AS n FROM ${ALL_AUDIT_ENTRIES} WHERE workspace_id = $1`, [workspaceId]))[0].n);
  const unsealedCount = async (workspaceId = ws.workspaceId) => Number((await db().query(`SELECT count(*) AS n FROM audit_pending WHERE workspace_id = $1`, [workspaceId]))[0].n);
  /** What the worker's sealer does (the test app runs no worker): chains every committed entry. */
  const seal = async (workspaceId = ws.workspaceId) => {
    const until = Date.now() + 20_000;
    // Behind the commit horizon: a transaction still open elsewhere on the cluster may hold it back a moment.
    while ((await t.app.get(SealAuditEntriesUseCase).sealPending()) >= 0 && (await unsealedCount(workspaceId)) > 0) {
      if (Date.now() > until) throw new Error('entries stay unsealed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('records each API change with the X-Request-Id of its response, the token, the member and the target', async () => {
    const created = await post('/v2/objects/companies/records', { data: { values: { name: 'Acme', domains: ['acme.test'] } } }).expect(200);
    const recordId = created.body.data.id.record_id as string;
    const updated = await patch(`/v2/objects/companies/records/${recordId}`, { data: { values: { name: 'Acme Ltd' } } }).expect(200);
    const deleted = await del(`/v2/objects/companies/records/${recordId}`).expect(200);

    // Written with the change, before any sealing: content hash only.
    const unsealed = await entries(`?target_id=${recordId}`);
    expect(unsealed).toHaveLength(3);
    for (const entry of unsealed) expect(entry).toEqual(expect.objectContaining({ sequence: null, prev_hash: null, hash: null, content_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }));
    await seal();
    const log = await entries(`?target_id=${recordId}`);
    const byAction = (action: string) => log.filter((entry) => entry.action === action);
    expect(byAction('record.created')).toEqual([expect.objectContaining({ request_id: created.headers['x-request-id'], target: { kind: 'record', id: recordId, ids: expect.objectContaining({ record_id: recordId }) } })]);
    expect(byAction('record.updated')).toEqual([
      expect.objectContaining({ request_id: updated.headers['x-request-id'], changes: { name: { old: ['Acme'], new: ['Acme Ltd'] } } }),
    ]);
    expect(byAction('record.created')[0].changes).toBeNull();
    expect(byAction('record.deleted')).toEqual([expect.objectContaining({ request_id: deleted.headers['x-request-id'] })]);
    for (const entry of log) {
      expect(entry.actor).toEqual(expect.objectContaining({ type: 'api-token', token_kind: 'service', token_id: expect.any(String), member_id: ws.adminMemberId }));
      expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    // Newest first.
    expect(log.map((entry) => Number(entry.sequence))).toEqual([...log.map((entry) => Number(entry.sequence))].sort((a, b) => b - a));
  });

  describe('old and new values of every value change', () => {
    /** The one entry of `action` on `targetId`, with the request id of `response`. */
    const changeOf = async (targetId: string, action: string, response: { headers: Record<string, string> }) => {
      const found = (await entries(`?target_id=${targetId}&action=${action}`)).filter((entry) => entry.request_id === response.headers['x-request-id']);
      expect(found).toHaveLength(1);
      return found[0];
    };

    it('list entries: PATCH, PUT and an assert by parent record', async () => {
      await post('/v2/lists', { data: { name: 'Deals', api_slug: 'audited_deals', parent_object: 'companies' } }).expect(200);
      await post('/v2/lists/audited_deals/attributes', { data: { title: 'Stage note', api_slug: 'stage_note', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
      const companyId = await createRecord('companies', { name: 'Entry Co' });
      const entryId = (await post('/v2/lists/audited_deals/entries', { data: { parent_record_id: companyId, parent_object: 'companies', entry_values: { stage_note: 'first' } } }).expect(200)).body.data.id.entry_id as string;

      const patched = await patch(`/v2/lists/audited_deals/entries/${entryId}`, { data: { entry_values: { stage_note: 'second' } } }).expect(200);
      expect(await changeOf(entryId, 'list-entry.updated', patched)).toEqual(expect.objectContaining({ target: expect.objectContaining({ kind: 'list-entry', id: entryId }), changes: { stage_note: { old: ['first'], new: ['second'] } } }));
      const replaced = await put(`/v2/lists/audited_deals/entries/${entryId}`, { data: { entry_values: { stage_note: 'third' } } }).expect(200);
      expect((await changeOf(entryId, 'list-entry.updated', replaced)).changes).toEqual({ stage_note: { old: ['second'], new: ['third'] } });
      const asserted = await put('/v2/lists/audited_deals/entries', { data: { parent_record_id: companyId, parent_object: 'companies', entry_values: { stage_note: 'fourth' } } }).expect(200);
      expect((await changeOf(entryId, 'list-entry.updated', asserted)).changes).toEqual({ stage_note: { old: ['third'], new: ['fourth'] } });
      const emptied = await patch(`/v2/lists/audited_deals/entries/${entryId}`, { data: { entry_values: { stage_note: null } } }).expect(200);
      expect((await changeOf(entryId, 'list-entry.updated', emptied)).changes).toEqual({ stage_note: { old: ['fourth'], new: [] } });
    });

    it('activity records, which have no updated event: PATCH and PUT', async () => {
      await post('/v2/activities', { data: { api_slug: 'audited_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } }).expect(200);
      await post('/v2/activities/audited_calls/attributes', { data: { title: 'Note', api_slug: 'note', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
      const records = '/v2/activities/audited_calls/records';
      const recordId = (await post(records, { data: { values: { timestamp: '2026-02-01T10:00:00Z', note: 'Intro' } } }).expect(200)).body.data.id.record_id as string;

      const patched = await patch(`${records}/${recordId}`, { data: { values: { note: 'Follow-up' } } }).expect(200);
      const entry = await changeOf(recordId, 'activity-record.updated', patched);
      expect(entry).toEqual(expect.objectContaining({
        target: { kind: 'activity-record', id: recordId, ids: expect.objectContaining({ record_id: recordId, activity_id: expect.any(String), attribute_id: expect.any(String) }) },
        changes: { note: { old: ['Intro'], new: ['Follow-up'] } },
        actor: expect.objectContaining({ token_kind: 'service', member_id: ws.adminMemberId }),
      }));
      const replaced = await t.http().put(`${records}/${recordId}`).set({ Authorization: `Bearer ${ws.token}` }).send({ data: { values: { note: 'Closed' } } }).expect(200);
      expect((await changeOf(recordId, 'activity-record.updated', replaced)).changes).toEqual({ note: { old: ['Follow-up'], new: ['Closed'] } });
      // Nothing changed, nothing recorded.
      const same = await patch(`${records}/${recordId}`, { data: { values: { note: 'Closed' } } }).expect(200);
      expect((await entries(`?target_id=${recordId}&action=activity-record.updated`)).filter((e) => e.request_id === same.headers['x-request-id'])).toEqual([]);
      await seal();
      expect(cliJson(await runCli(t.database.url, 'audit:verify', '--workspace', ws.slug))).toEqual(expect.objectContaining({ intact: true }));
    });

    it('a record assert that updates the record it matches', async () => {
      const recordId = await createRecord('companies', { name: 'Asserted', domains: ['asserted.test'] });
      const asserted = await put('/v2/objects/companies/records?matching_attribute=domains', { data: { values: { domains: ['asserted.test'], name: 'Asserted Inc' } } }).expect(200);
      expect(asserted.body.data.id.record_id).toBe(recordId);
      expect(await changeOf(recordId, 'record.updated', asserted)).toEqual(expect.objectContaining({ changes: { name: { old: ['Asserted'], new: ['Asserted Inc'] } } }));
    });

    it('the other side of a relationship: a single-valued side with its old and new values, a multiselect side named only', async () => {
      const first = await createRecord('companies', { name: 'Team One', domains: ['team-one.test'] });
      const second = await createRecord('companies', { name: 'Team Two', domains: ['team-two.test'] });
      const colleague = await createRecord('people', { email_addresses: ['colleague@team-one.test'], company: [{ target_object: 'companies', target_record_id: first }] });
      const personId = await createRecord('people', { email_addresses: ['mover@team-one.test'] });

      // The person's company (single-valued) is the write's own change; the company's team
      // (multiselect) gains the person, named without its whole list (which grows with every link).
      const linked = await patch(`/v2/objects/people/records/${personId}`, { data: { values: { company: [{ target_object: 'companies', target_record_id: first }] } } }).expect(200);
      expect((await changeOf(personId, 'record.updated', linked)).changes).toEqual({ company: { old: [], new: [first] } });
      expect(await changeOf(first, 'record.updated', linked)).toEqual(expect.objectContaining({ changes: null, target: expect.objectContaining({ ids: expect.objectContaining({ record_id: first }) }) }));

      // From the other side: a company takes both people, whose single company moves (mirrored,
      // with old and new values); their old company loses them.
      const taken = await patch(`/v2/objects/companies/records/${second}`, { data: { values: { team: [{ target_object: 'people', target_record_id: colleague }, { target_object: 'people', target_record_id: personId }] } } }).expect(200);
      expect((await changeOf(second, 'record.updated', taken)).changes).toEqual({ team: { old: [], new: [colleague, personId] } });
      expect((await changeOf(colleague, 'record.updated', taken)).changes).toEqual({ company: { old: [first], new: [second] } });
      expect((await changeOf(personId, 'record.updated', taken)).changes).toEqual({ company: { old: [first], new: [second] } });
      expect((await changeOf(first, 'record.updated', taken)).changes).toBeNull();

      // Unlinking from the company's side empties the person's company.
      const dropped = await put(`/v2/objects/companies/records/${second}`, { data: { values: { team: [{ target_object: 'people', target_record_id: colleague }] } } }).expect(200);
      expect((await changeOf(personId, 'record.updated', dropped)).changes).toEqual({ company: { old: [second], new: [] } });
    });

    it('the batch routes\' updates and updating asserts, of records and of entries', async () => {
      const updatedId = await createRecord('companies', { name: 'Batch Old' });
      const assertedId = await createRecord('companies', { name: 'Batch Assert Old', domains: ['batch-assert.test'] });
      const batch = await post('/v2/objects/companies/records/batch', {
        operations: [
          { op: 'update', record_id: updatedId, data: { values: { name: 'Batch New' } } },
          { op: 'assert', matching_attribute: 'domains', data: { values: { domains: ['batch-assert.test'], name: 'Batch Assert New' } } },
        ],
      }).expect(200);
      for (const item of batch.body.data as Array<{ status: number }>) expect(item.status).toBe(200);
      expect((await changeOf(updatedId, 'record.updated', batch)).changes).toEqual({ name: { old: ['Batch Old'], new: ['Batch New'] } });
      expect((await changeOf(assertedId, 'record.updated', batch)).changes).toEqual({ name: { old: ['Batch Assert Old'], new: ['Batch Assert New'] } });

      await post('/v2/lists', { data: { name: 'Batch deals', api_slug: 'audited_batch', parent_object: 'companies' } }).expect(200);
      await post('/v2/lists/audited_batch/attributes', { data: { title: 'Stage note', api_slug: 'stage_note', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
      const entryId = (await post('/v2/lists/audited_batch/entries', { data: { parent_record_id: updatedId, parent_object: 'companies', entry_values: { stage_note: 'a' } } }).expect(200)).body.data.id.entry_id as string;
      const entryBatch = await post('/v2/lists/audited_batch/entries/batch', { operations: [{ op: 'update', entry_id: entryId, data: { entry_values: { stage_note: 'b' } } }] }).expect(200);
      expect((entryBatch.body.data as Array<{ status: number }>)[0].status).toBe(200);
      expect((await changeOf(entryId, 'list-entry.updated', entryBatch)).changes).toEqual({ stage_note: { old: ['a'], new: ['b'] } });
    });
  });

  it('records each write of a batch (one entry per event, bound as arrays past 50), all with the batch\'s request id, and the chain holds', async () => {
    const operations = Array.from({ length: 60 }, (_, i) => ({ op: 'create', data: { values: { name: `Batch ${i}` } } }));
    const batch = await post('/v2/objects/companies/records/batch', { operations }).expect(200);
    const ids = (batch.body.data as Array<{ status: number; data: { id: { record_id: string } } }>).map((item) => { expect(item.status).toBe(200); return item.data.id.record_id; });
    const rows: Array<{ target_id: string; request_id: string; action: string }> = await db().query(
      `SELECT target_id, request_id, action FROM ${ALL_AUDIT_ENTRIES} WHERE workspace_id = $1 AND target_id = ANY($2::text[])`, [ws.workspaceId, ids]);
    expect(rows.map((row) => row.target_id).sort()).toEqual([...ids].sort());
    for (const row of rows) expect(row).toEqual({ target_id: expect.any(String), request_id: batch.headers['x-request-id'], action: 'record.created' });
    await seal();
    expect(cliJson(await runCli(t.database.url, 'audit:verify', '--workspace', ws.slug))).toEqual(expect.objectContaining({ intact: true }));
  });

  it('names a member token, its member and its app (OAuth client); notes and tasks too', async () => {
    const memberId = await t.createMember(ws.workspaceId, 'ada@audited.test', 'admin');
    const token = await t.tokenFor(ws.workspaceId, [SCOPES.noteReadWrite, SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead, SCOPES.taskReadWrite, SCOPES.userManagementRead], { memberId, clientId: 'app-client-1' });
    const personId = await createRecord('people', { email_addresses: ['grace@audited.test'] });
    const note = await post('/v2/notes', { data: { parent_object: 'people', parent_record_id: personId, title: 'Call', format: 'plaintext', content: 'hello' } }, token).expect(200);
    const noteId = note.body.data.id.note_id as string;
    const task = await post('/v2/tasks', { data: { content: 'Follow up', format: 'plaintext', deadline_at: null, is_completed: false, linked_records: [], assignees: [] } }, token).expect(200);
    const taskId = task.body.data.id.task_id as string;

    const [noteEntry] = await entries(`?target_id=${noteId}`, token);
    expect(noteEntry).toEqual(expect.objectContaining({ action: 'note.created', request_id: note.headers['x-request-id'], target: expect.objectContaining({ kind: 'note', id: noteId }) }));
    expect(noteEntry.actor).toEqual(expect.objectContaining({ token_kind: 'member', member_id: memberId, app_id: 'app-client-1' }));
    const byActor = await entries(`?actor_id=${noteEntry.actor.id as string}&action=task.created`, token);
    expect(byActor).toEqual([expect.objectContaining({ target: expect.objectContaining({ kind: 'task', id: taskId }), request_id: task.headers['x-request-id'] })]);
  });

  it('records a SCIM provisioning with the SCIM token and its request id', async () => {
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(ws.workspaceId, 'scim.audited.test');
    const scimToken = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementReadWrite]);
    const created = await t.http().post('/scim/v2/Users').set({ Authorization: `Bearer ${scimToken}` })
      .send({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'dee@scim.audited.test' }).expect(201);
    const [entry] = await entries(`?target_id=${created.body.id as string}`);
    expect(entry).toEqual(expect.objectContaining({ action: 'workspace-member.created', request_id: created.headers['x-request-id'], target: expect.objectContaining({ kind: 'workspace-member' }) }));
    expect(entry.actor).toEqual(expect.objectContaining({ token_kind: 'service', token_id: expect.any(String) }));
  });

  it('a write that fails leaves no entry', async () => {
    await post('/v2/objects/companies/records', { data: { values: { name: 'Unique Co', domains: ['unique.test'] } } }).expect(200);
    const before = await entryCount();
    const refused = await post('/v2/objects/companies/records', { data: { values: { name: 'Copy', domains: ['unique.test'] } } });
    expect(refused.status).toBe(409);
    await post('/v2/objects/companies/records', { data: { values: { name: 42 } } }).expect(400);
    expect(await entryCount()).toBe(before);
  });

  it('pages with a cursor and filters by time', async () => {
    for (let i = 0; i < 3; i += 1) await createRecord('companies', { name: `Paged ${i}` });
    await seal();
    const first = await get('/v2/audit_log?limit=2&action=record.created').expect(200);
    expect(first.body.data).toHaveLength(2);
    const next = await get(`/v2/audit_log?limit=2&action=record.created&cursor=${encodeURIComponent(first.body.pagination.next_cursor as string)}`).expect(200);
    const seen = [...first.body.data, ...next.body.data].map((entry: Entry) => entry.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(Number(next.body.data[0].sequence)).toBeLessThan(Number(first.body.data[1].sequence));
    expect(await entries('?until=2000-01-01T00:00:00Z')).toEqual([]);
    expect((await entries(`?since=${new Date(Date.now() - 3_600_000).toISOString()}&limit=1`)).length).toBe(1);
  });

  it('refuses bad filters naming them', async () => {
    await expectEachRefused(
      [
        ['limit=0', 'limit'],
        ['limit=501', 'limit'],
        ['since=yesterday', 'since'],
        ['until=2026-13-01T00:00:00Z', 'until'],
        ['cursor=nonsense', 'cursor'],
        ['actor_id=', 'actor_id'],
      ] as const,
      (query) => get(`/v2/audit_log?${query}`),
    );
  });

  it('needs an admin: a service token or an admin member; a member is 403; another workspace sees only its own', async () => {
    const memberId = await t.createMember(ws.workspaceId, 'bo@audited.test', 'member');
    const memberToken = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementRead], { memberId });
    await get('/v2/audit_log', memberToken).expect(403);
    const noScope = await t.tokenFor(ws.workspaceId, [SCOPES.noteRead]);
    await get('/v2/audit_log', noScope).expect(403);
    await t.http().get('/v2/audit_log').expect(401);
    const recordId = await createRecord('companies', { name: 'Private' });
    expect(await entries(`?target_id=${recordId}`, other.token)).toEqual([]);
    expect(await entries(`?target_id=${recordId}`)).not.toEqual([]);
  });

  it('offers no route that changes or deletes an entry', async () => {
    const [entry] = await entries('?limit=1');
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      const answer = await t.http()[method](`/v2/audit_log/${entry.id}`).set({ Authorization: `Bearer ${ws.token}` }).send({});
      expect(answer.status).toBe(404);
    }
  });

  it('is the table audit.log of POST /v2/sql, bound to the workspace, for admins only', async () => {
    const recordId = await createRecord('companies', { name: 'Queried' });
    await createRecord('companies', { name: 'Elsewhere' }, other.token);
    const sql = (statement: string, token = ws.token) => post('/v2/sql', { sql: statement }, token);
    const mine = await sql(`SELECT action, target_id FROM audit.log WHERE target_id = '${recordId}'`).expect(200);
    expect(mine.body.data.rows).toEqual([{ action: 'record.created', target_id: recordId }]);
    const workspaces = await sql('SELECT count(*) AS n, count(DISTINCT request_id) AS requests FROM audit.log').expect(200);
    expect(Number(workspaces.body.data.rows[0].n)).toBe(await entryCount());
    const theirs = await sql(`SELECT count(*) AS n FROM audit.log WHERE target_id = '${recordId}'`, other.token).expect(200);
    expect(Number(theirs.body.data.rows[0].n)).toBe(0);
    const memberId = await t.createMember(ws.workspaceId, 'cy@audited.test', 'member');
    const memberToken = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead, SCOPES.userManagementRead], { memberId });
    await sql('SELECT count(*) FROM audit.log', memberToken).expect(403);
    const noScope = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead]);
    await sql('SELECT count(*) FROM audit.log', noScope).expect(403);
  });

  describe('the sealer', () => {
    it('chains a committed entry within about a second when the worker runs it', async () => {
      const sealer = t.app.get(AuditSealer);
      sealer.start();
      try {
        const started = Date.now();
        const recordId = await createRecord('companies', { name: 'Sealed soon' });
        let sealedAfterMs: number | null = null;
        while (sealedAfterMs === null && Date.now() - started < 15_000) {
          const [entry] = await entries(`?target_id=${recordId}`);
          if (entry.sequence !== null) sealedAfterMs = Date.now() - started;
          else await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(sealedAfterMs).not.toBeNull();
        // ~0.5 s tick; generous for a loaded machine.
        expect(sealedAfterMs).toBeLessThan(5_000);
      } finally {
        await sealer.stop();
      }
    });

    it('two sealers at once chain each entry once, in one unbroken chain', async () => {
      await Promise.all(Array.from({ length: 12 }, (_, i) => createRecord('companies', { name: `Concurrent ${i}` })));
      const sealers = t.app.get(SealAuditEntriesUseCase);
      await Promise.all([sealers.sealPending(), sealers.sealPending(), sealers.sealPending()]);
      await seal();
      const [{ n, distinct, max }] = await db().query(`SELECT count(*)::int AS n, count(DISTINCT seq)::int AS distinct, max(seq)::int AS max FROM audit_log WHERE workspace_id = $1`, [ws.workspaceId]);
      expect(distinct).toBe(n);
      expect(max).toBe(n);
      expect(cliJson(await runCli(t.database.url, 'audit:verify', '--workspace', ws.slug))).toEqual(expect.objectContaining({ intact: true, entries_checked: n }));
    });
  });

  describe('audit:verify', () => {
    it('exits 0 on an intact chain, and names the first entry altered in the database', async () => {
      const recordId = await createRecord('companies', { name: 'Chained', domains: ['chained.test'] });
      await patch(`/v2/objects/companies/records/${recordId}`, { data: { values: { name: 'Chained Ltd' } } }).expect(200);
      await seal();
      const ran = await runCli(t.database.url, 'audit:verify', '--workspace', ws.slug);
      const intact = cliJson(ran);
      expect(intact).toEqual(expect.objectContaining({ intact: true, first_bad_entry: null }));
      expect(intact.entries_checked).toBe(await entryCount());

      const [victim] = await db().query(`SELECT seq::text AS seq, id, target_id FROM audit_log WHERE workspace_id = $1 ORDER BY seq LIMIT 1 OFFSET 2`, [ws.workspaceId]);
      await db().query(`UPDATE audit_log SET target_id = 'someone-else' WHERE workspace_id = $1 AND seq = $2`, [ws.workspaceId, victim.seq]);
      const broken = await runCli(t.database.url, 'audit:verify', '--workspace', ws.slug);
      expect(broken.code).toBe(3);
      expect(JSON.parse(broken.stdout)).toEqual(expect.objectContaining({ intact: false, first_bad_entry: { sequence: victim.seq, id: victim.id, reason: 'content_altered' } }));
      // Put it back: the chain holds again.
      await db().query(`UPDATE audit_log SET target_id = $3 WHERE workspace_id = $1 AND seq = $2`, [ws.workspaceId, victim.seq, victim.target_id]);
      expect(cliJson(await runCli(t.database.url, 'audit:verify', '--workspace', ws.slug))).toEqual(expect.objectContaining({ intact: true }));
    });

    it('finds an entry removed from the middle', async () => {
      for (const name of ['Theirs', 'Also theirs', 'Still theirs']) await createRecord('companies', { name }, other.token);
      await seal(other.workspaceId);
      const [victim] = await db().query(`SELECT seq::text AS seq FROM audit_log WHERE workspace_id = $1 ORDER BY seq LIMIT 1 OFFSET 1`, [other.workspaceId]);
      await db().query(`DELETE FROM audit_log WHERE workspace_id = $1 AND seq = $2`, [other.workspaceId, victim.seq]);
      const broken = await runCli(t.database.url, 'audit:verify', '--workspace', other.workspaceId);
      expect(broken.code).toBe(3);
      expect(JSON.parse(broken.stdout).first_bad_entry).toEqual({ sequence: victim.seq, id: null, reason: 'entry_missing' });
    });

    it('checks the content hash of entries not sealed yet, and names an altered one', async () => {
      await seal();
      const recordId = await createRecord('companies', { name: 'Fresh', domains: ['fresh.test'] });
      const [fresh] = await db().query(`SELECT id FROM audit_pending WHERE workspace_id = $1 AND target_id = $2`, [ws.workspaceId, recordId]);
      expect(fresh).toBeDefined();
      const intact = cliJson(await runCli(t.database.url, 'audit:verify', '--workspace', ws.slug));
      expect(intact).toEqual(expect.objectContaining({ intact: true, unsealed_checked: 1 }));
      await db().query(`UPDATE audit_pending SET changes = '{"name": {"old": null, "new": ["Forged"]}}' WHERE workspace_id = $1 AND id = $2`, [ws.workspaceId, fresh.id]);
      const broken = await runCli(t.database.url, 'audit:verify', '--workspace', ws.slug);
      expect(broken.code).toBe(3);
      expect(JSON.parse(broken.stdout).first_bad_entry).toEqual({ sequence: null, id: fresh.id, reason: 'content_altered' });
      await db().query(`UPDATE audit_pending SET changes = NULL WHERE workspace_id = $1 AND id = $2`, [ws.workspaceId, fresh.id]);
    });

    it('CLI changes are entries with the OS user, in the same chain', async () => {
      const issued = cliJson(await runCli(t.database.url, 'token:create', '--workspace', ws.slug, '--scopes', 'note:read'));
      const log = await entries(`?action=cli.token:create`);
      expect(log).toEqual([expect.objectContaining({ target: expect.objectContaining({ kind: 'token', id: issued.token_id }), actor: expect.objectContaining({ type: 'cli', cli_os_user: expect.any(String) }), request_id: expect.stringMatching(/^cli-/) })]);

      cliJson(await runCli(t.database.url, 'token:revoke', '--token', issued.access_token as string));
      expect(await entries(`?action=cli.token:revoke`)).toEqual([expect.objectContaining({ target: expect.objectContaining({ kind: 'token', id: issued.token_id }), actor: expect.objectContaining({ type: 'cli' }) })]);

      // An OAuth app is machine-wide: its registration is in every workspace's log.
      const registered = cliJson(await runCli(t.database.url, 'app:create', '--name', 'Audited app', '--redirect-uri', 'https://app.example/callback'));
      for (const token of [ws.token, other.token]) {
        expect(await entries(`?action=cli.app:create&target_id=${registered.client_id as string}`, token)).toEqual([expect.objectContaining({ target: expect.objectContaining({ kind: 'oauth-app' }) })]);
      }
    });
  });

  // Last: the sweep cuts every workspace of this database.
  describe('retention', () => {
    it('the sweep removes entries older than the retention, and the chain verifies from its new anchor', async () => {
      const fresh = await t.createWorkspace('audited-retention');
      const recordOf = (name: string) => createRecord('companies', { name }, fresh.token);
      await recordOf('Old 1');
      await recordOf('Old 2');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const newer = await recordOf('New');
      await seal(fresh.workspaceId);
      const [cut] = await db().query(`SELECT occurred_at FROM audit_log WHERE workspace_id = $1 AND target_id = $2`, [fresh.workspaceId, newer]);
      const before = await entryCount(fresh.workspaceId);
      const older = Number((await db().query(`SELECT count(*) AS n FROM audit_log WHERE workspace_id = $1 AND occurred_at < $2`, [fresh.workspaceId, cut.occurred_at]))[0].n);
      expect(older).toBeGreaterThan(0);
      // Retention of one day, "now" one day after the newest entry: exactly the entries before it go.
      await t.app.get(SweepAuditRetentionUseCase).execute(1, new Date(cut.occurred_at.getTime() + 86_400_000));
      expect(await entryCount(fresh.workspaceId)).toBe(before - older);
      await recordOf('After the cut');
      await seal(fresh.workspaceId);
      const verified = cliJson(await runCli(t.database.url, 'audit:verify', '--workspace', fresh.workspaceId));
      expect(verified).toEqual(expect.objectContaining({ intact: true, entries_checked: before - older + 1, anchor_sequence: String(older) }));
    });

    it('keeps entries younger than the retention', async () => {
      const before = await entryCount();
      expect(await t.app.get(SweepAuditRetentionUseCase).execute(365)).toEqual({ removed: 0 });
      expect(await entryCount()).toBe(before);
    });
  });
});
