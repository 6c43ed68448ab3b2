import { currentAmbientScope, runInAmbientScope } from './ambient-scope';

/**
 * Who is behind a change beyond the event's `actor`: the token and its kind, the member it acts
 * as, the OAuth client (app), or the CLI with its OS user. Written into each audit entry.
 */
export interface ActorDetail {
  readonly token_id?: string;
  readonly token_kind?: 'service' | 'member' | 'scim';
  readonly member_id?: string;
  readonly app_id?: string | null;
  readonly cli_os_user?: string;
}

/**
 * What the audit log needs to know about the request (or CLI command) a change runs in: its
 * request id (the `X-Request-Id` of the response) and the actor's detail, set once the access
 * guard knows the token. Mutable, because the guard learns the actor after the request started.
 */
export interface RequestContext {
  readonly requestId: string | null;
  actor?: ActorDetail;
}

/** Runs `work` with `context` as the current request context (HTTP middleware, CLI commands). */
export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return runInAmbientScope({ request: context }, work);
}

/** The request context of the current request or command, if any (none in the worker). */
export function currentRequestContext(): RequestContext | undefined {
  return currentAmbientScope()?.request as RequestContext | undefined;
}
