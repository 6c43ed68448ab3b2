import type { Test } from 'supertest';
import type { TestApp } from './test-app';

/** The SCIM schema and message URNs the suites send and expect (RFC 7643, RFC 7644). */
export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
export const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
export const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type Body = Record<string, unknown>;

/** A SCIM error answer: this status, the SCIM media type, the error schema with a detail, and `scimType` when given. */
export function expectScimError(res: { status: number; body: Body; headers: Record<string, string> }, status: number, scimType?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
  expect(res.body).toEqual({ schemas: [ERROR], status: String(status), detail: expect.stringMatching(/\S/), ...(scimType ? { scimType } : {}) });
}

/** A PatchOp request (RFC 7644 §3.5.2) of these operations to a SCIM resource path, with these headers (a provider's token and media type). */
export function patchOp(t: TestApp, path: string, headers: Record<string, string>, operations: readonly unknown[]): Test {
  return t.http().patch(path).set(headers).send({ schemas: [PATCH], Operations: operations });
}
