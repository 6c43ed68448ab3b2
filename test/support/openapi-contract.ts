import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Response, Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { buildOpenApiDocument } from '../../apps/api/src/swagger';

/**
 * The published contract checked against what the app answers: every response a suite reads
 * through `t.http()` must carry a status its operation documents, and a JSON body that validates
 * against the schema documented for that status (and media type). A mismatch fails the request's
 * promise with the operation, the status and ajv's errors, so drift between the document and the
 * behaviour cannot come back unseen. Paths the document does not have (unknown routes, probes a
 * suite mounts, /docs) are not checked.
 */
export class OpenApiContract {
  private readonly ajv: Ajv;
  private readonly operations: Array<{ method: string; template: string; pattern: RegExp; literalLength: number; operation: Operation }> = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenAPIObject) {
    // OpenAPI 3.0 schemas: `nullable`, and annotations (`example`, ...) that are no JSON Schema keywords.
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addFormat('password', true);
    const components = asJsonSchema(document.components ?? {});
    this.ajv.addSchema({ $id: 'openapi', components });
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
        if (!HTTP_METHODS.has(method)) continue;
        const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
        this.operations.push({ method, template, pattern, literalLength: template.replace(/\{[^}]+\}/g, '').length, operation });
      }
    }
    // A literal segment wins over a parameter (`/v2/objects/records/search` before `/v2/objects/{object}/records`).
    this.operations.sort((a, b) => b.literalLength - a.literalLength);
  }

  /** The problems of one answer (empty when it keeps the contract, or when the document has no such operation). */
  problemsOf(method: string, url: string, res: Pick<Response, 'status' | 'headers' | 'body' | 'text'>): string[] {
    const path = new URL(url, 'http://contract.invalid').pathname;
    const found = this.operations.find((o) => o.method === method.toLowerCase() && o.pattern.test(path));
    if (!found) return [];
    const id = `${method.toUpperCase()} ${found.template}`;
    const status = String(res.status);
    const documented = found.operation.responses[status] ?? found.operation.responses[`${status[0]}XX`] ?? found.operation.responses.default;
    if (!documented) return [`${id} answered ${status}, which it does not document (it documents ${Object.keys(found.operation.responses).join(', ')}); body: ${bodyText(res)}`];
    const contentType = String(res.headers['content-type'] ?? '').split(';')[0].trim();
    if (!contentType || !/json/.test(contentType)) return [];
    const media = documented.content?.[contentType] ?? documented.content?.['application/json'];
    if (!media?.schema) {
      // A route that serves whatever media type it holds (a file's bytes) documents the range */*.
      if (documented.content?.['*/*']) return [];
      // A JSON answer where the document says another media type is drift too (e.g. a 401 documented as text/plain).
      const types = Object.keys(documented.content ?? {});
      return types.length > 0 ? [`${id} ${status} answered ${contentType}; the document says ${types.join(', ')}`] : [];
    }
    const validate = this.validatorFor(`${id} ${status} ${contentType}`, media.schema);
    const body = parsedBody(res);
    if (validate(body)) return [];
    return [`${id} ${status}: the body does not match the documented schema: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}; body: ${bodyText(res)}`];
  }

  /** `agent` whose every request's promise fails when its answer breaks the contract. */
  checking(agent: TestAgent): TestAgent {
    return new Proxy(agent, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || !HTTP_METHODS.has(key === 'del' ? 'delete' : key) || typeof value !== 'function') return value;
        return (url: string, ...rest: unknown[]) => this.checked((value as (...args: unknown[]) => Test).call(target, url, ...rest), key === 'del' ? 'delete' : key, url);
      },
    });
  }

  private checked(test: Test, method: string, url: string): Test {
    const then = test.then.bind(test);
    const checkedThen: Test['then'] = (onFulfilled, onRejected) =>
      then((res: Response) => {
        const problems = this.problemsOf(method, url, res);
        if (problems.length > 0) throw new Error(`OpenAPI contract: ${problems.join('\n')}`);
        return res;
      }).then(onFulfilled, onRejected);
    test.then = checkedThen;
    return test;
  }

  private validatorFor(key: string, schema: unknown): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(asJsonSchema(schema) as object);
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/** The contract of a running app: its own document, as `/openapi.json` serves it. */
export function contractOf(app: INestApplication, baseUrl: string): OpenApiContract {
  return new OpenApiContract(buildOpenApiDocument(app, baseUrl));
}

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/**
 * An OpenAPI 3.0 schema as JSON Schema for ajv: references point into the `openapi` schema that
 * holds the components, and `nullable: true` is "this, or null" wherever it stands (as generators
 * such as openapi-typescript read it, also beside `allOf`/`oneOf` where ajv's own `nullable` needs a `type`).
 */
function asJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') converted[key] = value.replace(/^#\/components\//, 'openapi#/components/');
    else if (!(key === 'nullable' && typeof value === 'boolean')) converted[key] = asJsonSchema(value);
  }
  return (schema as { nullable?: unknown }).nullable === true ? { anyOf: [converted, { enum: [null] }] } : converted;
}

/**
 * The JSON as sent (superagent parses only some JSON media types into `body`; a suite that reads
 * bytes with a parser of its own gets a Buffer, which holds the JSON of an error just the same).
 */
function parsedBody(res: Pick<Response, 'body' | 'text'>): unknown {
  if (!res.text && Buffer.isBuffer(res.body)) {
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      return res.body;
    }
  }
  if (!res.text) return res.body;
  try {
    return JSON.parse(res.text);
  } catch {
    return res.text;
  }
}

function bodyText(res: Pick<Response, 'text'>): string {
  const text = res.text ?? '';
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}
