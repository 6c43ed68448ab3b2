import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';

/** One issuer, BASE_URL, in the OAuth metadata, /v2/self and /oauth/introspect. */
describe('issuer', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const baseUrl = 'https://crm.example.test:8443';

  beforeAll(async () => {
    t = await startTestApp({ env: { BASE_URL: `${baseUrl}/` } });
    ws = await t.createWorkspace('issuer');
  });
  afterAll(() => t.close());

  it('is BASE_URL (without a trailing slash) in the metadata, /v2/self and introspection alike', async () => {
    const metadata = (await t.http().get('/.well-known/oauth-authorization-server').expect(200)).body;
    const self = (await t.http().get('/v2/self').set('Authorization', `Bearer ${ws.token}`).expect(200)).body;
    const introspected = (await t.http().post('/oauth/introspect').set('Authorization', `Bearer ${ws.token}`).type('form').send({ token: ws.token }).expect(200)).body;
    expect(metadata.issuer).toBe(baseUrl);
    expect(self).toMatchObject({ active: true, iss: baseUrl });
    expect(introspected).toMatchObject({ active: true, iss: baseUrl });
  });
});
