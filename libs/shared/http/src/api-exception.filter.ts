import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { apiErrorBody } from './error-response';
import { type Problem, toProblem } from './problem';

/**
 * The one place where failures become HTTP responses. Each surface keeps its own error dialect:
 * SCIM errors use the SCIM error schema (RFC 7644 §3.12), the OAuth endpoints RFC 6749 §5.2
 * bodies, everything else the reference API's `{status_code, type, code, message}`.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const problem = toProblem(error);
    if (problem.code === 'database_unavailable') {
      // Expected while the database fails over or restarts: one WARN line with the cause, no stack.
      const { reason, mayHaveApplied } = problem.details;
      this.logger.warn({ msg: 'database unavailable', method: request.method, url: request.originalUrl, cause: reason, mayHaveApplied });
    } else if (problem.unexpected) {
      this.logger.error({ err: error, method: request.method, url: request.originalUrl }, 'unhandled error');
    } else if (problem.details.missedValidation) {
      this.logger.warn({ err: error, method: request.method, url: request.originalUrl }, 'the database refused a value the request validation let through');
    }
    if (response.headersSent) return;
    if (problem.retryAfterSeconds !== undefined) {
      response.setHeader('Retry-After', new Date(Date.now() + problem.retryAfterSeconds * 1000).toUTCString());
    }
    const path = request.path ?? request.url;
    if (path.startsWith('/scim/')) {
      response.status(problem.status).type('application/scim+json').send(JSON.stringify(scimBody(problem)));
    } else if (oauthErrorFor(path, problem)) {
      response.status(problem.status).setHeader('Cache-Control', 'no-store');
      // Explicit type: a handler's own @Header('Content-Type') must not relabel its error body.
      response.type('application/json').json({ error: oauthErrorFor(path, problem), error_description: problem.message });
    } else {
      response.status(problem.status).type('application/json').json(apiErrorBody(problem));
    }
  }
}

/** The JSON endpoints of the authorization server; the authorize endpoint answers with pages. */
const OAUTH_JSON_ENDPOINT = /^\/oauth\/(token|introspect|revoke)\/?$/;

/**
 * The RFC 6749 §5.2 `error` of a failure under /oauth/: the one the domain chose, or, on the JSON
 * endpoints, a generic one for failures that happen before our code runs (a malformed or
 * oversized body), so that OAuth clients always get the dialect they parse.
 */
function oauthErrorFor(path: string, problem: Problem): string | undefined {
  if (!path.startsWith('/oauth/')) return undefined;
  if (typeof problem.details.oauth_error === 'string') return problem.details.oauth_error;
  if (!OAUTH_JSON_ENDPOINT.test(path) || problem.status === 429) return undefined;
  return problem.status >= 500 ? 'server_error' : 'invalid_request';
}

function scimBody(problem: Problem) {
  const scimType = typeof problem.details.scimType === 'string' ? problem.details.scimType : undefined;
  return {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(problem.status),
    ...(scimType ? { scimType } : {}),
    detail: problem.message,
  };
}
