import { useTestApp, useWorkspace } from '../support/suite';

/** One issuer, BASE_URL, in the OAuth metadata, /v2/self and /oauth/introspect. */
describe('issuer', () => {
  const baseUrl = 'https://crm.example.test:8443';
  const t = useTestApp({ env: { BASE_URL: `${baseUrl}/` } });
  const ws = useWorkspace(t, 'issuer');

  it('is BASE_URL (without a trailing slash) in the metadata, /v2/self and introspection alike', async () => {
    const metadata = (await t.http().get('/.well-known/oauth-authorization-server').expect(200)).body;
    const self = (await t.http().get('/v2/self').set('Authorization', `Bearer ${ws.token}`).expect(200)).body;
    const introspected = (await t.http().post('/oauth/introspect').set('Authorization', `Bearer ${ws.token}`).type('form').send({ token: ws.token }).expect(200)).body;
    expect(metadata.issuer).toBe(baseUrl);
    expect(self).toMatchObject({ active: true, iss: baseUrl });
    expect(introspected).toMatchObject({ active: true, iss: baseUrl });
  });
});
