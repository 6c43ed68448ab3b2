import { REFUSED_SPELLINGS } from '../../libs/webhooks/src/domain/target-policy.fixture';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * Every spelling of a refused address, at creation and at update, through the API: a 400 in the
 * documented shape naming `data.target_url`, and nothing stored. The same table is checked at
 * delivery time (DNS answers) in libs/webhooks/src/infrastructure/safe-http-client.spec.ts.
 */
describe.each([
  ['refused', false],
  ['allowed', true],
])('webhook target addresses with private targets %s (e2e)', (_, allowPrivate) => {
  const t = useTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: String(allowPrivate) } });
  const ws = useWorkspace(t);

  const create = (targetUrl: string) =>
    t
      .http()
      .post('/v2/webhooks')
      .set('Authorization', `Bearer ${ws.token}`)
      .send({ data: { target_url: targetUrl, subscriptions: [{ event_type: 'note.created', filter: null }] } });

  it(`checks ${REFUSED_SPELLINGS.length} spellings of private and metadata addresses`, async () => {
    expect(REFUSED_SPELLINGS.length).toBeGreaterThanOrEqual(40);
    for (const spelling of REFUSED_SPELLINGS) {
      const res = await create(spelling.url);
      if (spelling.kind === 'private' && allowPrivate) {
        expect({ url: spelling.url, status: res.status }).toEqual({ url: spelling.url, status: 200 });
        continue;
      }
      expect({ url: spelling.url, status: res.status, body: res.body }).toEqual({
        url: spelling.url,
        status: 400,
        body: { status_code: 400, type: 'invalid_request_error', code: 'validation_type', message: expect.stringMatching(/^data\.target_url is not an allowed target: /) },
      });
      expect({ url: spelling.url, message: res.body.message }).toEqual({ url: spelling.url, message: expect.stringMatching(spelling.label) });
    }
    const list = await t.http().get('/v2/webhooks?limit=100').set('Authorization', `Bearer ${ws.token}`);
    const stored = REFUSED_SPELLINGS.filter((s) => s.kind === 'private' && allowPrivate).length;
    expect(list.body.data).toHaveLength(stored);
  });

  it('resolves names with a trailing dot or in upper case like any other name', async () => {
    for (const url of ['http://localhost./hook', 'http://LOCALHOST/hook', 'http://LocalHost.:8080/hook']) {
      const res = await create(url);
      if (allowPrivate) expect(res.status).toBe(200);
      else expect(res.body.message).toMatch(/^data\.target_url is not an allowed target: localhost resolves to .*loopback/);
    }
  });

  it('refuses a metadata address on update and keeps the old target', async () => {
    const created = await create('https://93.184.215.14/hook');
    expect(created.status).toBe(200);
    const id = created.body.data.id.webhook_id;
    const res = await t
      .http()
      .patch(`/v2/webhooks/${id}`)
      .set('Authorization', `Bearer ${ws.token}`)
      .send({ data: { target_url: 'http://[::ffff:a9fe:a9fe]/latest/meta-data' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^data\.target_url is not an allowed target: ::ffff:a9fe:a9fe is a cloud metadata endpoint \(IPv4-mapped 169\.254\.169\.254\)/);
    const got = await t.http().get(`/v2/webhooks/${id}`).set('Authorization', `Bearer ${ws.token}`);
    expect(got.body.data.target_url).toBe('https://93.184.215.14/hook');
  });
});
