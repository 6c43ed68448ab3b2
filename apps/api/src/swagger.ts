import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ApiErrorResponse } from '@workbase/shared/http';
import { ALL_SCOPES, describeScope } from '@workbase/shared/kernel';
import { METRICS_TOKEN_SCHEME } from '../../shared/src/metrics.controller';

export function buildOpenApiDocument(app: INestApplication, baseUrl: string): OpenAPIObject {
  const scopes = Object.fromEntries(ALL_SCOPES.map((scope) => [scope, describeScope(scope)]));
  const config = new DocumentBuilder()
    .setTitle('Workbase API')
    .setDescription(
      'Workspace-scoped REST API over objects, lists, records, activities, notes, meetings and webhooks, ' +
        'plus SCIM 2.0 provisioning and an OAuth 2.0 authorization server. The wire format follows the public ' +
        'Attio REST API. Each operation lists the scopes its token needs under `x-required-scopes` and in its ' +
        'security requirements. Errors under /v2 are `{status_code, type, code, message}`.',
    )
    .setVersion('2.0.0')
    .addServer(baseUrl)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A workspace API token or an OAuth access token' }, 'bearer')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The operator\'s METRICS_TOKEN (no workspace token); only /metrics reads it' }, METRICS_TOKEN_SCHEME)
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'The token as username, empty password' }, 'basic')
    .addOAuth2(
      {
        type: 'oauth2',
        description:
          'Authorization-code flow with PKCE through this server. Register an app whose redirect URIs include ' +
          `\`${baseUrl}/docs/oauth2-redirect.html\` (CLI \`app:create\`), then enter its client_id and client_secret here.`,
        flows: {
          authorizationCode: {
            authorizationUrl: `${baseUrl}/oauth/authorize`,
            tokenUrl: `${baseUrl}/oauth/token`,
            scopes,
          },
        },
      },
      'oauth2',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  documentBodyLimit(document);
  // The package is UNLICENSED (proprietary): a name, and no URL of a licence text to point to
  // (DocumentBuilder.setLicense would write an empty one).
  document.info.license = { name: 'Proprietary (UNLICENSED)' };
  return withDatabaseUnavailable(document);
}

/**
 * The body parser refuses a body over BODY_LIMIT before any route runs, so every operation that
 * takes a body can answer 413: in the /v2 error shape there, and in its area's shape (SCIM, OAuth) elsewhere.
 */
function documentBodyLimit(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of [item.post, item.put, item.patch]) {
      if (!operation?.requestBody || operation.responses['413']) continue;
      operation.responses['413'] = {
        description: 'The body is larger than BODY_LIMIT',
        ...(path.startsWith('/v2/') ? { content: { 'application/json': { schema: { $ref: getSchemaPath(ApiErrorResponse) } } } } : {}),
      };
    }
  }
}

/**
 * Every operation may answer 503 `database_unavailable` while the database is away (a failover, a
 * restart, no connection in time), so each one documents it, with its Retry-After, unless it
 * documents a 503 of its own (readiness).
 */
function withDatabaseUnavailable(document: OpenAPIObject): OpenAPIObject {
  const response = {
    description:
      'The database is unavailable (lost connection, restart, failover, read-only after a failover, no connection in time): `database_unavailable`. ' +
      'Nothing was written, unless the message says the connection was lost while the write was being committed (it may have been applied: check before sending it again). Reads were already tried twice.',
    headers: { 'Retry-After': { description: 'When to try again, as an HTTP date', schema: { type: 'string' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorResponse' } } },
  };
  for (const path of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const) {
      const operation = path[method];
      if (operation && !operation.responses['503']) operation.responses['503'] = response;
    }
  }
  return document;
}

export function mountSwagger(app: INestApplication, baseUrl: string): void {
  const document = buildOpenApiDocument(app, baseUrl);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: {
      persistAuthorization: true,
      oauth2RedirectUrl: `${baseUrl}/docs/oauth2-redirect.html`,
      // The "Authorize" dialog runs the authorization-code flow with PKCE (S256), as OAuth 2.1 asks of every client.
      initOAuth: { usePkceWithAuthorizationCodeGrant: true, appName: 'Workbase API docs' },
    },
    customSiteTitle: 'Workbase API',
  });
}
