import { useTestApp, useWorkspace } from '../support/suite';
import { contractOf } from '../support/openapi-contract';
describe('probe', () => {
  const t = useTestApp(); const ws = useWorkspace(t);
  it('checks', async () => {
    const c = contractOf(t.app, t.config.baseUrl);
    console.log(c.problemsOf('GET', '/v2/objects/people', { status: 200, headers: { 'content-type': 'application/json' }, body: {}, text: '{"data":{"id":1}}' }));
    console.log(c.problemsOf('GET', '/v2/objects/people', { status: 418, headers: { 'content-type': 'application/json' }, body: {}, text: '{}' }));
    await t.http().get('/v2/self').expect(200);
    const r = await t.http().get('/v2/objects/people').set('Authorization', `Bearer ${ws.token}`);
    console.log(r.status, c.problemsOf('GET', '/v2/objects/people', r));
  });
});
