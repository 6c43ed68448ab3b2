import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REFUSED_SPELLINGS } from '../domain/target-policy.fixture';
import { checkPublicUrl, type HostResolver, SafeHttpClient } from './safe-http-client';

/**
 * Delivery-time checks: a resolver injected in place of DNS answers a refused address for the
 * receiver's name, in every spelling of the table. The request must not leave: a loopback canary
 * listening on the URL's port counts what arrives. No address other than loopback is connected to.
 */
describe('SafeHttpClient at delivery time', () => {
  let canary: Server;
  let port: number;
  let received = 0;

  beforeAll(async () => {
    canary = createServer((req, res) => {
      received++;
      req.resume();
      res.end('ok');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    port = (canary.address() as AddressInfo).port;
  });
  afterAll(async () => {
    canary.closeAllConnections();
    await new Promise((resolve) => canary.close(resolve));
  });

  const answering = (address: string): HostResolver => async () => [{ address, family: address.includes(':') ? 6 : 4 }];
  const post = (client: SafeHttpClient) => client.post(`http://receiver.test:${port}/hook`, '{}', {}, 2_000);

  it.each(REFUSED_SPELLINGS.map((s) => [s.answer, s.label] as const))('refuses a name that resolves to %s, without connecting', async (answer, label) => {
    const before = received;
    const result = await post(new SafeHttpClient({ allowPrivateTargets: false }, answering(answer)));
    expect(result).toMatchObject({ statusCode: null, refused: true });
    expect(result.error).toMatch(/^target refused: receiver\.test resolves to /);
    expect(result.error).toMatch(label);
    expect(received).toBe(before);
  });

  it.each(REFUSED_SPELLINGS.filter((s) => s.kind === 'metadata').map((s) => [s.answer] as const))(
    'refuses a name that resolves to the metadata address %s even with private targets allowed',
    async (answer) => {
      const before = received;
      const result = await post(new SafeHttpClient({ allowPrivateTargets: true }, answering(answer)));
      expect(result).toMatchObject({ statusCode: null, refused: true, error: expect.stringMatching(/metadata/) });
      expect(received).toBe(before);
    },
  );

  it('refuses the whole answer when any one address is refused', async () => {
    const resolver: HostResolver = async () => [
      { address: '127.0.0.1', family: 4 },
      { address: '::ffff:a9fe:a9fe', family: 6 },
    ];
    const before = received;
    const result = await post(new SafeHttpClient({ allowPrivateTargets: true }, resolver));
    expect(result.error).toMatch(/metadata/);
    expect(received).toBe(before);
  });

  it('connects to the address the resolver answered when it is allowed (the control)', async () => {
    const before = received;
    const result = await post(new SafeHttpClient({ allowPrivateTargets: true }, answering('127.0.0.1')));
    expect(result).toMatchObject({ statusCode: 200, refused: false, error: null });
    expect(received).toBe(before + 1);
  });

  it('checks a URL at creation with the same resolver, naming what is wrong', async () => {
    const options = { allowPrivateTargets: true, resolve: answering('::ffff:a9fe:a9fe') };
    expect(await checkPublicUrl('https://hooks.example.com/x', options)).toMatch(/^is not an allowed target: hooks\.example\.com resolves to ::ffff:a9fe:a9fe is a cloud metadata endpoint/);
    expect(await checkPublicUrl('https://hooks.example.com./x', { allowPrivateTargets: false, resolve: answering('93.184.215.14') })).toBeNull();
    expect(await checkPublicUrl('ftp://example.com/x', options)).toBe('must use http or https');
    expect(await checkPublicUrl('https://user:pw@example.com/x', options)).toBe('must not contain credentials');
    expect(await checkPublicUrl('not a url', options)).toBe('must be an absolute URL');
    expect(await checkPublicUrl('https://nowhere.test/x', { allowPrivateTargets: false, resolve: () => Promise.reject(new Error('ENOTFOUND')) })).toBe(
      'is not an allowed target: nowhere.test does not resolve',
    );
  });
});
