import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { connectionLost } from '@workbase/shared/persistence';
import { catchError, type Observable, throwError } from 'rxjs';
import { isReadRequest } from './rate-limit.guard';

/**
 * A read that failed because its database connection was dead (the server restarted or failed
 * over, a proxy or pooler dropped the connection) runs once more before the caller hears of it.
 * The pool has dropped the dead connection by then, so the second run connects afresh; a second
 * failure is answered (503). Writes never run twice: their outcome may be unknown.
 */
@Injectable()
export class ReadRetryInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !isReadRequest(context)) return next.handle();
    // handle() is deferred: subscribing to a second one runs the handler again.
    return next.handle().pipe(catchError((error: unknown) => (connectionLost(error) ? next.handle() : throwError(() => error))));
  }
}
