import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { catchError, from, type Observable } from 'rxjs';
import type { AuthContext } from './auth-context';
import { toProblem } from './problem';
import { findNul } from './reject-nul.pipe';

/** A request's path parameters by name (`{ object: 'people', record_id: '…' }`). */
export type PathParams = Readonly<Record<string, string | undefined>>;

/**
 * A controller whose routes take ids in their path: `resolvePathIds` looks each one up in the
 * caller's workspace, in path order, with the lookups its handlers use, and throws what they throw
 * for an id that is not there (a 404). Params a route does not have are undefined.
 */
export interface ResolvesPathIds {
  resolvePathIds(auth: AuthContext, params: PathParams): Promise<unknown>;
}

function resolvesPathIds(controller: unknown): controller is ResolvesPathIds {
  return typeof (controller as Partial<ResolvesPathIds> | null)?.resolvePathIds === 'function';
}

/**
 * Tenancy before validation: another workspace's id (or an unknown one) in the path is a 404
 * whatever the body, query or headers hold, so a 400 never answers for an id the caller cannot see.
 *
 * The global pipe validates before the handler runs, so the handler's own lookups come too late
 * for a bad body. Rather than look the ids up before every request (a second lookup on every
 * valid write), the check runs where it matters: when a request on a route with path parameters
 * is refused with a 400 (by the pipe or the handler), the controller's `resolvePathIds` runs, and
 * a 404 from it is the answer. Any other outcome of the lookup keeps the 400. Valid requests pay
 * nothing; the handler's lookups answer their 404 as before.
 */
@Injectable()
export class PathIdsFirstInterceptor implements NestInterceptor {
  private readonly controllers = new Map<Type<unknown>, ResolvesPathIds | null>();

  constructor(private readonly modules: ModuleRef) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<{ params?: Record<string, string>; user?: AuthContext }>();
    if (Object.keys(request.params ?? {}).length === 0) return next.handle();
    return next.handle().pipe(catchError((error: unknown) => from(this.answerFor(error, context.getClass(), request.user, request.params ?? {}))));
  }

  private async answerFor(error: unknown, type: Type<unknown>, auth: AuthContext | undefined, params: PathParams): Promise<never> {
    // A path parameter holding U+0000 is itself what the 400 is about (RejectNulPipe names it): it
    // names nothing the database could look up, another workspace's or not.
    const controller = auth && toProblem(error).status === 400 && findNul(params, '') === null ? this.controller(type) : null;
    if (controller) {
      try {
        await controller.resolvePathIds(auth!, params);
      } catch (lookup) {
        if (toProblem(lookup).status === 404) throw lookup;
      }
    }
    throw error;
  }

  private controller(type: Type<unknown>): ResolvesPathIds | null {
    if (!this.controllers.has(type)) {
      this.controllers.set(type, this.instanceOf(type));
    }
    return this.controllers.get(type)!;
  }

  /** The controller's instance, when it resolves path ids; a controller the container does not know keeps its 400. */
  private instanceOf(type: Type<unknown>): ResolvesPathIds | null {
    try {
      const instance: unknown = this.modules.get(type, { strict: false });
      return resolvesPathIds(instance) ? instance : null;
    } catch {
      return null;
    }
  }
}
