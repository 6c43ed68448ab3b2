import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { AuthContext } from '@workbase/shared/http';
import { TransactionRunner } from '@workbase/shared/persistence';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { ActivityRepository } from '../../infrastructure/activity.repository';

/**
 * Runs a write of the (record-engine-owned) activity attribute endpoints in one transaction and
 * stamps the activity's `api_slug` on the activity events it recorded, as the activity's own
 * writes do. Reads pass through untouched.
 */
@Injectable()
export class ActivityEventSlugInterceptor implements NestInterceptor {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly activities: ActivityRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<{ method: string; user?: AuthContext }>();
    const workspaceId = request.user?.workspaceId;
    if (request.method === 'GET' || !workspaceId) return next.handle();
    return from(
      this.transactions.run(async () => {
        const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
        await this.activities.stampEventSlugs(workspaceId);
        return result;
      }),
    );
  }
}
