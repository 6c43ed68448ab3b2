import type { Test } from 'supertest';
import type { TestApp } from './test-app';

/** The Authorization header of a bearer token. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export interface BearerRequests {
  get(path: string, token?: string): Test;
  post(path: string, body: object, token?: string): Test;
  put(path: string, body: object, token?: string): Test;
  patch(path: string, body: object, token?: string): Test;
  del(path: string, token?: string): Test;
  /** Creates a record of `object` (slug or id) with these values; answers its record_id. */
  createRecord(object: string, values: object, token?: string): Promise<string>;
  /** The object_id of an object slug. */
  objectId(slug: string, token?: string): Promise<string>;
}

/**
 * Requests to the app with a bearer token: `defaultToken()` (a workspace's), or the token given last.
 * Both are functions because a suite starts its app and workspace in `beforeAll`.
 */
export function bearerRequests(app: () => TestApp, defaultToken: () => string): BearerRequests {
  const requests: BearerRequests = {
    get: (path, token = defaultToken()) => app().http().get(path).set(bearer(token)),
    post: (path, body, token = defaultToken()) => app().http().post(path).set(bearer(token)).send(body),
    put: (path, body, token = defaultToken()) => app().http().put(path).set(bearer(token)).send(body),
    patch: (path, body, token = defaultToken()) => app().http().patch(path).set(bearer(token)).send(body),
    del: (path, token = defaultToken()) => app().http().delete(path).set(bearer(token)),
    createRecord: async (object, values, token) =>
      (await requests.post(`/v2/objects/${object}/records`, { data: { values } }, token).expect(200)).body.data.id.record_id as string,
    objectId: async (slug, token) => (await requests.get(`/v2/objects/${slug}`, token).expect(200)).body.data.id.object_id as string,
  };
  return requests;
}

/**
 * Sends each bad input and expects a 400 `invalid_request_error` whose message names the case's
 * field; a failure shows the case's input and field beside the status, so it says which case it was.
 */
export async function expectEachRefused<T>(cases: ReadonlyArray<readonly [T, string]>, send: (input: T) => PromiseLike<{ status: number; body: { message?: string } }>): Promise<void> {
  for (const [input, field] of cases) {
    const res = await send(input);
    expect({ input, field, status: res.status }).toEqual({ input, field, status: 400 });
    expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error' });
    expect(res.body.message).toContain(field);
  }
}
