import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import type { Observable } from 'rxjs';

/** Every SCIM response body is `application/scim+json` (RFC 7644 §8.1); errors get it from the filter. */
@Injectable()
export class ScimJsonInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    context.switchToHttp().getResponse<Response>().type('application/scim+json');
    return next.handle();
  }
}
