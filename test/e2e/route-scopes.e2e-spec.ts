import { ApiExcludeController } from '@nestjs/swagger';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Controller, Get, Module, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { ANY_SCOPE_KEY, PUBLIC_ROUTE_KEY, REQUIRED_SCOPES_KEY } from '../../libs/shared/http/src/metadata';
import { useTestApp, useWorkspace } from '../support/suite';
import type { TestApp } from '../support/test-app';

/** A handler that forgot its access declaration: the guard must close it. */
@ApiExcludeController() // a probe of this suite, not part of the published contract
@Controller('v2/undeclared-probe')
class UndeclaredProbeController {
  @Get()
  leak() {
    return { secret: 'must never be served' };
  }
}

/** Joins the app exactly as a forgotten controller of some context would. */
@Module({ controllers: [UndeclaredProbeController] })
class UndeclaredProbeModule {}

interface Route {
  readonly controller: string;
  readonly handler: string;
  readonly method: string;
  readonly path: string;
  readonly scopes: readonly string[] | undefined;
  /** One of `scopes` is enough (`RequireAnyScope`). */
  readonly anyScope: boolean;
  readonly isPublic: boolean;
}

/** Every route handler Nest registered, with the access metadata the guard reads. */
function registeredRoutes(t: TestApp): Route[] {
  const routes: Route[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!type) continue;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, type) ?? '');
      for (const name of Object.getOwnPropertyNames(type.prototype)) {
        // Read descriptors, not properties: a getter on a controller must not run here.
        const handler = Object.getOwnPropertyDescriptor(type.prototype, name)?.value as unknown;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const scopes = Reflect.getMetadata(REQUIRED_SCOPES_KEY, handler) ?? Reflect.getMetadata(REQUIRED_SCOPES_KEY, type);
        const anyScope = Boolean(Reflect.getMetadata(ANY_SCOPE_KEY, handler) ?? Reflect.getMetadata(ANY_SCOPE_KEY, type));
        const isPublic = Boolean(Reflect.getMetadata(PUBLIC_ROUTE_KEY, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE_KEY, type));
        for (const one of [path].flat()) {
          const full = `/${[prefix, one].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
          routes.push({ controller: type.name, handler: name, method, path: full, scopes, anyScope, isPublic });
        }
      }
    }
  }
  return routes;
}

/** `/v2/objects/:object` → `/v2/objects/{object}`, the OpenAPI spelling. */
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('route access declarations', () => {
  const t = useTestApp({ imports: [UndeclaredProbeModule] });
  const ws = useWorkspace(t);
  let routes: Route[];

  beforeAll(async () => {
    routes = registeredRoutes(t).filter((route) => route.controller !== UndeclaredProbeController.name);
  });

  it('finds the routes of every context', () => {
    const prefixes = new Set(routes.map((route) => route.path.split('/').slice(0, 3).join('/')));
    for (const expected of ['/v2/self', '/v2/objects', '/v2/lists', '/v2/activities', '/v2/notes', '/v2/meetings', '/v2/webhooks', '/scim/v2', '/oauth/token', '/health']) {
      expect([...prefixes].some((prefix) => expected.startsWith(prefix) || prefix.startsWith(expected))).toBe(true);
    }
    expect(routes.length).toBeGreaterThan(60);
  });

  it('declares scopes or @Public() on every handler', () => {
    const undeclared = routes.filter((route) => !route.isPublic && !(Array.isArray(route.scopes) && route.scopes.length > 0));
    expect(undeclared.map((route) => `${route.method} ${route.path} (${route.controller}.${route.handler})`)).toEqual([]);
  });

  it('declares only scopes of the catalogue, and never both public and scoped', () => {
    const known = new Set<string>(ALL_SCOPES);
    for (const route of routes) {
      for (const scope of route.scopes ?? []) expect({ route: route.path, scope, known: known.has(scope) }).toEqual({ route: route.path, scope, known: true });
      expect({ route: `${route.method} ${route.path}`, both: route.isPublic && route.scopes !== undefined }).toEqual({ route: `${route.method} ${route.path}`, both: false });
    }
  });

  it('keeps public routes to health, OAuth, discovery and introspection', () => {
    const publicPaths = routes.filter((route) => route.isPublic).map((route) => route.path);
    // /v2/self is introspection: it must answer {"active":false} to a bad token rather than a 401.
    // /metrics checks its own operator token (METRICS_TOKEN), which is no workspace token.
    // A file's content is served to whoever holds its signed, expiring download URL (the signature is its authority).
    for (const path of publicPaths) expect(path).toMatch(/^\/(health|oauth\/|\.well-known\/|v2\/self$|metrics$|v2\/files\/:file_id\/content$)/);
  });

  it('denies an undeclared route even to an all-scope token', async () => {
    const res = await t.http().get('/v2/undeclared-probe').set('Authorization', `Bearer ${ws.token}`).expect(403);
    expect(res.body).toEqual({ status_code: 403, type: 'auth_error', code: 'unauthorized', message: expect.stringContaining('declares no access rules') });
    expect(JSON.stringify(res.body)).not.toContain('must never be served');
  });

  it('documents every scoped route in OpenAPI with its scopes, security and error responses', async () => {
    const doc = (await t.http().get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { 'x-required-scopes'?: string[]; 'x-required-scopes-match'?: string; security?: Record<string, string[]>[]; responses: Record<string, unknown> }>>;
    };
    const missing: string[] = [];
    for (const route of routes.filter((r) => !r.isPublic)) {
      const operation = doc.paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase()];
      if (!operation) {
        missing.push(`${route.method} ${route.path}`);
        continue;
      }
      expect({ route: route.path, scopes: operation['x-required-scopes'] }).toEqual({ route: route.path, scopes: route.scopes });
      // All of the scopes: one OAuth 2.0 requirement naming them all; any one of them: one requirement each.
      const oauth2 = route.anyScope ? (route.scopes ?? []).map((scope) => ({ oauth2: [scope] })) : [{ oauth2: route.scopes }];
      expect(operation.security).toEqual(expect.arrayContaining([{ bearer: [] }, ...oauth2]));
      expect({ route: route.path, match: operation['x-required-scopes-match'] }).toEqual({ route: route.path, match: route.anyScope ? 'any' : undefined });
      for (const status of ['401', '403']) expect({ route: `${route.method} ${route.path}`, status, has: status in operation.responses }).toEqual({ route: `${route.method} ${route.path}`, status, has: true });
    }
    expect(missing).toEqual([]);
  });

  it('documents a success response with its schema for every operation, and a body for every write', async () => {
    type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }> }>; requestBody?: unknown };
    const doc = (await t.http().get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, Operation>> };
    // Bodiless by their protocol: an RFC 7009 revocation answers an empty 200, a replay takes no input.
    const noBodyNeeded = new Set(['POST /oauth/revoke', 'POST /v2/webhooks/{webhook_id}/deliveries/{delivery_id}/replay']);
    // The authorize endpoint answers with HTML pages or a redirect, not a JSON document.
    const noSchemaNeeded = new Set(['GET /oauth/authorize', 'POST /oauth/revoke']);
    const gaps: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path === '/v2/undeclared-probe') continue; // this suite's own probe
      for (const [method, operation] of Object.entries(operations)) {
        const id = `${method.toUpperCase()} ${path}`;
        const success = Object.keys(operation.responses).filter((code) => /^[23]/.test(code));
        if (success.length === 0) gaps.push(`${id}: no success response`);
        for (const code of success.filter((c) => c !== '204' && !c.startsWith('3'))) {
          const documented = Object.values(operation.responses[code].content ?? {}).some((media) => media.schema);
          if (!documented && !noSchemaNeeded.has(id)) gaps.push(`${id}: ${code} has no schema`);
        }
        if (['post', 'put', 'patch'].includes(method) && !operation.requestBody && !noBodyNeeded.has(id) && !path.startsWith('/oauth/')) gaps.push(`${id}: no request body`);
        if (path.includes('{') && !('404' in operation.responses)) gaps.push(`${id}: takes an id but documents no 404`);
      }
    }
    expect(gaps).toEqual([]);
  });

  it('serves Swagger UI at /docs and the document as JSON and YAML', async () => {
    const html = await t.http().get('/docs/').expect(200);
    expect(html.text).toContain('swagger-ui');
    const yaml = await t.http().get('/openapi.yaml').expect(200);
    expect(yaml.text).toContain('openapi: 3');
    const doc = (await t.http().get('/openapi.json').expect(200)).body;
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['basic', 'bearer', 'metricsToken', 'oauth2']);
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode).toMatchObject({
      authorizationUrl: expect.stringMatching(/\/oauth\/authorize$/),
      tokenUrl: expect.stringMatching(/\/oauth\/token$/),
    });
  });

  it('gives every documented class its own schema name (Swagger names a schema after its class, so a second class of the same name would be shown as the first)', async () => {
    const root = path.join(__dirname, '../..');
    const files = readdirSync(path.join(root, 'libs'), { recursive: true, encoding: 'utf8' }).filter((file) => /interface\/http\/[^/]+\.ts$/.test(file) && !file.endsWith('.spec.ts'));
    const declared = new Map<string, string[]>();
    for (const file of files) {
      for (const [, name] of readFileSync(path.join(root, 'libs', file), 'utf8').matchAll(/^(?:export )?class (\w+)/gm)) declared.set(name, [...(declared.get(name) ?? []), file]);
    }
    expect(declared.size).toBeGreaterThan(100);
    expect([...declared].filter(([, where]) => where.length > 1)).toEqual([]);
    const { schemas } = (await t.http().get('/openapi.json').expect(200)).body.components;
    expect(schemas.ActorResponse.properties.type.enum).toEqual(['api-token', 'workspace-member', 'system', 'app']);
    expect(schemas.ResolverResponse.properties.type.nullable).toBe(true);
  });
});
