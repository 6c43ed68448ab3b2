import { createHash } from 'node:crypto';
import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail, type ThrottlerRequest } from '@nestjs/throttler';
import { RateLimitedError } from '@workbase/shared/kernel';
import { ROUTE_RATE_LIMIT_KEY } from './metadata';

/**
 * Per-token request limits, reads and writes counted separately (the reference API's 100/s and
 * 25/s by default), and on a route marked with `RouteRateLimit` its own lower limit besides.
 * Requests without a token are counted per client address.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  // The signature is ThrottlerGuard's own.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  protected override async getTracker(req: Record<string, any>): Promise<string> {
    const authorization: unknown = req.headers?.authorization;
    if (typeof authorization === 'string' && authorization.length > 0) {
      return `token:${createHash('sha256').update(authorization).digest('base64url')}`;
    }
    return `ip:${req.ip ?? 'unknown'}`;
  }

  /**
   * One budget per credential and throttler ("reads" or "writes") across every route, as the
   * reference API counts; the stock key would give each handler a budget of its own. A route's own
   * limit ("route") is the exception: its budget is that route's.
   */
  protected override generateKey(context: ExecutionContext, tracker: string, throttlerName: string): string {
    if (throttlerName === ROUTE_THROTTLER) return `${throttlerName}:${context.getClass().name}.${context.getHandler().name}:${tracker}`;
    return `${throttlerName}:${tracker}`;
  }

  /** A batch costs one write per started 100 operations (at least one): each is counted as a request. */
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const cost = request.throttler.name === 'writes' ? writeCost(request.context) : 1;
    for (let spent = 1; spent < cost; spent++) await super.handleRequest(request);
    return super.handleRequest(request);
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new RateLimitedError(Math.max(1, Math.ceil(detail.timeToBlockExpire || detail.timeToExpire || 1)));
  }
}

/** The throttler of the limits routes set for themselves with `RouteRateLimit`. */
export const ROUTE_THROTTLER = 'route';

/** The requests per second the handler allows by its `RouteRateLimit`, or undefined when it sets none. */
export function routeRateLimit(context: ExecutionContext): number | undefined {
  const limit: unknown = Reflect.getMetadata(ROUTE_RATE_LIMIT_KEY, context.getHandler());
  return typeof limit === 'number' ? limit : undefined;
}

/** Queries are POSTs that only read: they count against the read limit, as lookups do. */
export function isReadRequest(context: ExecutionContext): boolean {
  const { method, path } = context.switchToHttp().getRequest<{ method: string; path: string }>();
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  return method === 'POST' && (/\/query\/?$/.test(path) || path === '/v2/sql' || path === '/v2/objects/records/search');
}

/** Operations a batch write counts as one write (`POST …/records/batch`, `…/entries/batch`). */
export const BATCH_OPERATIONS_PER_WRITE = 100;

/** How many writes a request costs: a batch one per started 100 operations (its body is parsed before the guards run), anything else one. */
export function writeCost(context: ExecutionContext): number {
  const { method, path, body } = context.switchToHttp().getRequest<{ method: string; path: string; body?: { operations?: unknown } }>();
  if (method !== 'POST' || !/\/(records|entries)\/batch\/?$/.test(path) || !Array.isArray(body?.operations)) return 1;
  return Math.max(1, Math.ceil(Math.min(body.operations.length, 1000) / BATCH_OPERATIONS_PER_WRITE));
}
