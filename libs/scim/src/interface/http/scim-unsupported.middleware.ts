import { Injectable, type NestMiddleware } from '@nestjs/common';
import { DomainError } from '@workbase/shared/kernel';
import type { NextFunction, Request, Response } from 'express';

const READ_ONLY_ENDPOINT = /^\/scim\/v2\/(ServiceProviderConfig|Schemas|ResourceTypes)(\/[^/]*)?\/?$/i;
const BULK = /^\/scim\/v2\/Bulk\/?$/i;

/**
 * RFC 7644 answers for what this service does not do, in the SCIM error schema (the error filter
 * writes them): `/Bulk` is 501 (ServiceProviderConfig says `bulk.supported: false`), and a write
 * method on a discovery endpoint is 405 with `Allow: GET`. A middleware rather than routes: these
 * are no operations of the API, and no request reaches a handler or the data.
 */
@Injectable()
export class ScimUnsupportedMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    const path = req.originalUrl.split('?')[0];
    if (BULK.test(path)) {
      return next(new DomainError('not_implemented', 'Bulk operations are not supported (ServiceProviderConfig: bulk.supported is false); send each operation on its own.'));
    }
    if (READ_ONLY_ENDPOINT.test(path) && req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET');
      return next(new DomainError('method_not_allowed', `${req.method} is not allowed on ${path}: discovery endpoints are read-only (GET).`));
    }
    next();
  }
}
