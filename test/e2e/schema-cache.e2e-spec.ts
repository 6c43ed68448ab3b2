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

  it('keeps each workspace to its own schema', async () => {
    const other = await t.createWorkspace();
    await onReplica().post('/v2/objects/companies/records/query').set({ Authorization: `Bearer ${other.token}` }).send({}).expect(200);
    const refused = await onReplica().post('/v2/objects/companies/records').set({ Authorization: `Bearer ${other.token}` }).send({ data: { values: { name: 'X', tier: 'gold' } } });
    expect(refused.status).toBe(400);
  });
});
