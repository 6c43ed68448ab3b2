import type { NestExpressApplication } from '@nestjs/platform-express';
import { createLogger } from '@workbase/shared/http';
import request from 'supertest';
import { createApp } from '../../apps/api/src/app.factory';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';

/**
 * Containers and their attributes are cached per process; a schema change made through one app
 * (a replica) must be seen by the other as soon as PostgreSQL's notification reaches it
 * (milliseconds; the e2e allows a second, as for tokens, because a loaded CI machine may delay
 * the delivery). Each test first makes the replica cache the schema, then changes it through the
 * first app, then expects the replica to answer as the new schema says.
 */
describe('schema cache across replicas', () => {
  let t: TestApp;
  let replica: NestExpressApplication;
  let ws: TestWorkspace;
  const as = () => ({ Authorization: `Bearer ${ws.token}` });
  const onReplica = () => request(replica.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    replica = await createApp(t.config, t.database.url, createLogger('silent'));
    ws = await t.createWorkspace();
  });
  afterAll(async () => {
    await replica.close();
    await t.close();
  });

  /** Retries `send` every 20 ms until it answers `status`, for at most a second; the last answer. */
  async function eventually(status: number, send: () => request.Test) {
    const started = Date.now();
    for (;;) {
      const res = await send();
      if (res.status === status || Date.now() - started > 1000) return res;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const warmReplica = async (object: string) => onReplica().post(`/v2/objects/${object}/records/query`).set(as()).send({ limit: 1 }).expect(200);

  it('writes a new attribute through the other replica right after it was created', async () => {
    await warmReplica('companies');
    await t.http().post('/v2/objects/companies/attributes').set(as())
      .send({ data: { title: 'Tier', api_slug: 'tier', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    const created = await eventually(200, () => onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'Acme', tier: 'gold' } } }));
    expect(created.status).toBe(200);
    expect(created.body.data.values.tier[0].value).toBe('gold');
  });

  it('refuses an attribute archived through the other replica, and a removed requirement is lifted', async () => {
    await t.http().post('/v2/objects/companies/attributes').set(as())
      .send({ data: { title: 'Region', api_slug: 'region', type: 'text', is_required: true, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await warmReplica('companies');
    expect((await eventually(400, () => onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'No region' } } }))).status).toBe(400);
    await t.http().patch('/v2/objects/companies/attributes/region').set(as()).send({ data: { is_required: false } }).expect(200);
    expect((await eventually(200, () => onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'No region' } } }))).status).toBe(200);
    await t.http().patch('/v2/objects/companies/attributes/tier').set(as()).send({ data: { is_archived: true } }).expect(200);
    const refused = await eventually(400, () => onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'Late', tier: 'silver' } } }));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/tier/);
  });

  it('refuses an archived select option on the other replica', async () => {
    await t.http().post('/v2/objects/companies/attributes').set(as())
      .send({ data: { title: 'Stage', api_slug: 'stage', type: 'select', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    const option = (await t.http().post('/v2/objects/companies/attributes/stage/options').set(as()).send({ data: { title: 'Lead' } }).expect(200)).body.data;
    expect((await eventually(200, () => onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'S1', stage: 'Lead' } } }))).status).toBe(200);
    await t.http().patch(`/v2/objects/companies/attributes/stage/options/${option.id.option_id}`).set(as()).send({ data: { is_archived: true } }).expect(200);
    expect((await eventually(400, () => onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'S2', stage: 'Lead' } } }))).status).toBe(400);
  });

  it('follows a status renamed through the other replica: the old title is refused, the new one written', async () => {
    await t.http().post('/v2/objects/companies/attributes').set(as())
      .send({ data: { title: 'Phase', api_slug: 'phase', type: 'status', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await t.http().post('/v2/objects/companies/attributes/phase/statuses').set(as()).send({ data: { title: 'Open' } }).expect(200);
    // The replica's write looks the status up by title, and keeps it.
    expect((await eventually(200, () => onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'P1', phase: 'Open' } } }))).status).toBe(200);
    await onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'P2', phase: 'Open' } } }).expect(200);
    await t.http().patch('/v2/objects/companies/attributes/phase/statuses/Open').set(as()).send({ data: { title: 'In progress' } }).expect(200);
    const refused = await eventually(400, () => onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'P3', phase: 'Open' } } }));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/phase/);
    const written = await onReplica().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'P4', phase: 'In progress' } } }).expect(200);
    expect(written.body.data.values.phase[0].status.title).toBe('In progress');
  });

  it('follows an object renamed through the other replica: the old slug is gone, the new one answers', async () => {
    const object = (await t.http().post('/v2/objects').set(as()).send({ data: { api_slug: 'gadgets', singular_noun: 'Gadget', plural_noun: 'Gadgets' } }).expect(200)).body.data;
    await warmReplica('gadgets');
    await warmReplica(object.id.object_id);
    await t.http().patch('/v2/objects/gadgets').set(as()).send({ data: { api_slug: 'widgets' } }).expect(200);
    expect((await eventually(404, () => onReplica().post('/v2/objects/gadgets/records/query').set(as()).send({}))).status).toBe(404);
    const byId = await onReplica().post(`/v2/objects/${object.id.object_id}/records/query`).set(as()).send({}).expect(200);
    expect(byId.body.data).toEqual([]);
    await onReplica().post('/v2/objects/widgets/records/query').set(as()).send({}).expect(200);
  });

  describe('the SQL endpoint\'s tables', () => {
    const sql = (app: () => ReturnType<typeof request>, statement: string) => app().post('/v2/sql').set(as()).send({ sql: statement });
    const here = () => t.http();

    it('follow attributes added and archived, and activities renamed, in this process at once and on the other replica', async () => {
      await t.http().post('/v2/activities').set(as()).send({ data: { api_slug: 'visits', singular_noun: 'Visit', plural_noun: 'Visits', extends: 'calls' } }).expect(200);
      // Both processes keep the activity's table.
      for (const app of [here, onReplica]) await sql(app, 'SELECT count(*) AS n FROM activities.visits').expect(200);

      await t.http().post('/v2/activities/visits/attributes').set(as())
        .send({ data: { title: 'Mood', api_slug: 'mood', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
      // In the process that made the change, the notice arrived before its commit returned: no retry.
      await sql(here, 'SELECT mood FROM activities.visits').expect(200);
      expect((await eventually(200, () => sql(onReplica, 'SELECT mood FROM activities.visits'))).status).toBe(200);

      await t.http().patch('/v2/activities/visits/attributes/mood').set(as()).send({ data: { is_archived: true } }).expect(200);
      expect((await sql(here, 'SELECT mood FROM activities.visits')).body.message).toMatch(/column "mood" does not exist/);
      const archived = await eventually(400, () => sql(onReplica, 'SELECT mood FROM activities.visits'));
      expect(archived.status).toBe(400);
      expect(archived.body.message).toMatch(/column "mood" does not exist/);

      await t.http().patch('/v2/activities/visits').set(as()).send({ data: { api_slug: 'site_visits' } }).expect(200);
      expect((await sql(here, 'SELECT count(*) AS n FROM activities.visits')).body.message).toBe('Table "activities.visits" does not exist.');
      const renamed = await eventually(400, () => sql(onReplica, 'SELECT count(*) AS n FROM activities.visits'));
      expect(renamed.body.message).toBe('Table "activities.visits" does not exist.');
      for (const app of [here, onReplica]) expect((await sql(app, 'SELECT count(*) AS n FROM activities.site_visits').expect(200)).body.data.rows).toEqual([{ n: 0 }]);
    });

    it('are never another workspace\'s, though both have a table of that name cached', async () => {
      const other = await t.createWorkspace();
      const mine = (await sql(onReplica, 'SELECT count(*) AS n FROM people').expect(200)).body.data.rows[0].n;
      await request(replica.getHttpServer()).post('/v2/objects/people/records').set({ Authorization: `Bearer ${other.token}` }).send({ data: { values: { name: 'Someone else' } } }).expect(200);
      const theirs = await request(replica.getHttpServer()).post('/v2/sql').set({ Authorization: `Bearer ${other.token}` }).send({ sql: 'SELECT count(*) AS n FROM people' }).expect(200);
      expect(theirs.body.data.rows).toEqual([{ n: 1 }]);
      expect((await sql(onReplica, 'SELECT count(*) AS n FROM people').expect(200)).body.data.rows).toEqual([{ n: mine }]);
    });
  });

  it('keeps each workspace to its own schema', async () => {
    const other = await t.createWorkspace();
    await onReplica().post('/v2/objects/companies/records/query').set({ Authorization: `Bearer ${other.token}` }).send({}).expect(200);
    const refused = await onReplica().post('/v2/objects/companies/records').set({ Authorization: `Bearer ${other.token}` }).send({ data: { values: { name: 'X', tier: 'gold' } } });
    expect(refused.status).toBe(400);
  });
});
