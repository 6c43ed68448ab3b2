import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { OpenApiContract } from '../support/openapi-contract';
import { useTestApp } from '../support/suite';

const run = promisify(execFile);
const bin = (name: string) => path.join(__dirname, '../../node_modules/.bin', name);

/**
 * Warnings of Redocly's recommended ruleset that stay, each for a reason the README gives
 * (section "OpenAPI document"): anything else, and any error, fails.
 */
const EXPLAINED_WARNINGS = [
  // The sign-in and consent forms answer with redirects (303/302) or HTML pages on failure: a browser form has no 2xx success.
  'operation-2xx-response #/paths/~1oauth~1sign-in/post/responses',
  'operation-2xx-response #/paths/~1oauth~1consent/post/responses',
  // A file's download is a 302 to its signed URL, as in the reference API: there is no 2xx.
  'operation-2xx-response #/paths/~1v2~1files~1{file_id}~1download/get/responses',
  // UNLICENSED: a licence name and no URL of a licence text.
  'info-license-strict #/info/license/url',
];

describe('the published OpenAPI document', () => {
  // A deployment's BASE_URL, not localhost (which the recommended ruleset flags as a placeholder server).
  const t = useTestApp({ env: { BASE_URL: 'https://workbase.internal' } });
  const work = { dir: '' };
  beforeAll(() => (work.dir = mkdtempSync(path.join(tmpdir(), 'workbase-openapi-'))));
  afterAll(() => rmSync(work.dir, { recursive: true, force: true }));

  async function servedDocument(): Promise<string> {
    const file = path.join(work.dir, 'openapi.json');
    writeFileSync(file, (await t.http().get('/openapi.json').expect(200)).text);
    return file;
  }

  it('passes @redocly/cli lint with the recommended ruleset: no errors, and only the warnings the README explains', async () => {
    const file = await servedDocument();
    // redocly exits 1 on errors; its JSON report is on stdout either way.
    // No telemetry or update check: CI has no network beyond the npm registry.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const { stdout } = await run(bin('redocly'), ['lint', file, '--format=json'], { maxBuffer: 16 * 1024 * 1024, env }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    const report = JSON.parse(stdout) as { totals: { errors: number }; problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
    const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(problems.sort()).toEqual([...EXPLAINED_WARNINGS].sort());
  });

  it('generates a TypeScript client (openapi-typescript) that a strict program using it type-checks against', async () => {
    const file = await servedDocument();
    const types = path.join(work.dir, 'workbase-api.d.ts');
    await run(bin('openapi-typescript'), [file, '--output', types]);
    writeFileSync(
      path.join(work.dir, 'client.ts'),
      `import type { components, paths } from './workbase-api';

type Json<P extends keyof paths, M extends keyof paths[P], S extends number> =
  paths[P][M] extends { responses: { [K in S]: { content: { 'application/json': infer B } } } } ? B : never;

declare function call<T>(method: string, url: string, body?: unknown): Promise<T>;

export async function tour(): Promise<string[]> {
  const self = await call<Json<'/v2/self', 'get', 200>>('GET', '/v2/self');
  const workspace: string | undefined = self.active ? self.workspace_id : undefined;
  const objects = await call<Json<'/v2/objects', 'get', 200>>('GET', '/v2/objects');
  const slugs: Array<string | null> = objects.data.map((o) => o.api_slug);
  const objectId: string = objects.data[0].id.object_id;
  const body: components['schemas']['RecordWriteRequest'] = { data: { values: { name: 'Acme' } } };
  const created = await call<Json<'/v2/objects/{object}/records', 'post', 200>>('POST', '/v2/objects/companies/records', body);
  const recordId: string = created.data.id.record_id;
  const found = await call<Json<'/v2/objects/{object}/records/query', 'post', 200>>('POST', '/v2/objects/companies/records/query', { limit: 10 });
  const foundIds: string[] = found.data.map((r) => r.id.record_id);
  const hooks = await call<Json<'/v2/webhooks', 'get', 200>>('GET', '/v2/webhooks');
  const targets: string[] = hooks.data.map((w) => w.target_url);
  return [workspace ?? '', ...slugs.map(String), objectId, recordId, ...foundIds, ...targets];
}
`,
    );
    writeFileSync(
      path.join(work.dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'commonjs', skipLibCheck: false, types: [] }, files: ['client.ts'] }),
    );
    const checked = await run(bin('tsc'), ['-p', work.dir]).then(
      () => 'type-checks',
      (e: { stdout: string }) => e.stdout,
    );
    expect(checked).toBe('type-checks');
  });

  it('documents what the service does where it used to say otherwise', async () => {
    const doc = (await t.http().get('/openapi.json').expect(200)).body;
    const schemas = doc.components.schemas;
    const bodyOf = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/scim+json'].schema.$ref.split('/').pop();
    // SCIM bodies: only the RFC's required attributes are required (the resource's id and meta are not sent).
    for (const method of ['post', 'put']) {
      expect(schemas[bodyOf(method === 'post' ? '/scim/v2/Users' : '/scim/v2/Users/{user_id}', method)].required.sort()).toEqual(['schemas', 'userName']);
      expect(schemas[bodyOf(method === 'post' ? '/scim/v2/Groups' : '/scim/v2/Groups/{workspace_team_id}', method)].required.sort()).toEqual(['displayName', 'schemas']);
    }
    // A projected resource keeps only id and schemas for sure.
    expect(schemas.ScimUserResource.required.sort()).toEqual(['id', 'schemas']);
    expect(schemas.ScimGroupResource.required.sort()).toEqual(['id', 'schemas']);
    // /v2/self answers without a token; /metrics reads its own token and answers JSON errors.
    expect(doc.paths['/v2/self'].get.security).toEqual(expect.arrayContaining([{}, { bearer: [] }]));
    expect(doc.paths['/metrics'].get.security).toEqual(expect.arrayContaining([{}, { metricsToken: [] }]));
    expect(Object.keys(doc.paths['/metrics'].get.responses['401'].content)).toEqual(['application/json']);
    // ids are typed key by key (a generated client reads data.id.record_id).
    expect(schemas.RecordResponse.properties.id).toEqual({ $ref: '#/components/schemas/RecordId' });
    expect(schemas.RecordId.required).toEqual(['workspace_id', 'object_id', 'record_id']);
  });

  it("fails an answer whose status or body the document does not have (the check every suite's requests go through)", async () => {
    const contract = new OpenApiContract((await t.http().get('/openapi.json').expect(200)).body);
    const json = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body, text: JSON.stringify(body) });
    expect(contract.problemsOf('GET', '/v2/objects/people', json(418, {}))).toEqual([expect.stringContaining('answered 418, which it does not document')]);
    expect(contract.problemsOf('GET', '/v2/objects/people?x=1', json(200, { data: { id: 1 } }))).toEqual([expect.stringMatching(/GET \/v2\/objects\/\{object\} 200: .*body\/data\/id must be object/)]);
    expect(contract.problemsOf('GET', '/v2/self', json(200, { active: false }))).toEqual([]);
    expect(contract.problemsOf('GET', '/v2/not-a-route', json(404, {}))).toEqual([]);
  });
});
