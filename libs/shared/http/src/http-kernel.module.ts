import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { DataSource } from 'typeorm';
import { AccessGuard } from './access.guard';
import { ApiExceptionFilter } from './api-exception.filter';
import { isReadRequest, RateLimitGuard, ROUTE_THROTTLER, routeRateLimit } from './rate-limit.guard';
import { PostgresRateLimitStore } from './rate-limit.store';
import { PathIdsFirstInterceptor } from './path-ids-first.interceptor';
import { ReadRetryInterceptor } from './read-retry.interceptor';
import { BasicTokenStrategy, BearerTokenStrategy } from './token.strategies';
import { createValidationPipe } from './validation.pipe';

/**
 * The request pipeline every context relies on: rate limits, then authentication and scopes,
 * then validation, with one exception filter; a read whose database connection died runs once more;
 * a 400 on a route with ids in its path is a 404 when one of them is not the caller's. Registered once, by the app's root module.
 */
@Module({
  imports: [
    PassportModule,
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, DataSource],
      useFactory: (config: AppConfig, dataSource: DataSource) => ({
        // Shared counters by default, so that replicas do not each grant the full limit.
        storage: config.rateLimit.store === 'postgres' ? new PostgresRateLimitStore(dataSource) : undefined,
        // A throttler's own skipIf replaces the module-wide one, so each states the switch too.
        throttlers: [
          { name: 'reads', ttl: 1000, limit: config.rateLimit.readsPerSecond, skipIf: (ctx) => !config.rateLimit.enabled || !isReadRequest(ctx) },
          { name: 'writes', ttl: 1000, limit: config.rateLimit.writesPerSecond, skipIf: (ctx) => !config.rateLimit.enabled || isReadRequest(ctx) },
          // A route's own limit (`RouteRateLimit`), counted besides the read or write one.
          { name: ROUTE_THROTTLER, ttl: 1000, limit: (ctx) => routeRateLimit(ctx) ?? 0, skipIf: (ctx) => !config.rateLimit.enabled || routeRateLimit(ctx) === undefined },
        ],
        setHeaders: false,
      }),
    }),
  ],
  providers: [
    BearerTokenStrategy,
    BasicTokenStrategy,
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_INTERCEPTOR, useClass: ReadRetryInterceptor },
    { provide: APP_INTERCEPTOR, useClass: PathIdsFirstInterceptor },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
export class HttpKernelModule {}
