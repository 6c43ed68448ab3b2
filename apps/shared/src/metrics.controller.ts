import { Controller, Get, Header, Headers, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiSecurity, ApiTags, ApiUnauthorizedResponse, getSchemaPath } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ApiErrorResponse, Public } from '@workbase/shared/http';
import { UnauthenticatedError } from '@workbase/shared/kernel';
import { timingSafeEqual } from 'node:crypto';
import { Metrics } from './metrics';

/** The security scheme of METRICS_TOKEN in the OpenAPI document (declared by `buildOpenApiDocument`). */
export const METRICS_TOKEN_SCHEME = 'metricsToken';

@ApiTags('Meta')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Public to the scrapers an operator allows: with METRICS_TOKEN set, only with that token (which
   * is no workspace token); without it, open outside production and closed in production unless
   * METRICS_PUBLIC=true says the port is private.
   */
  @Get()
  @Public()
  @ApiSecurity(METRICS_TOKEN_SCHEME)
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)', description: 'Needs `Authorization: Bearer $METRICS_TOKEN` when that is set. Without a token it is open outside production; with `NODE_ENV=production` it is closed unless `METRICS_PUBLIC=true`.' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Metrics in the Prometheus text format', content: { 'text/plain': { schema: { type: 'string', example: 'workbase_http_request_duration_seconds_count{method="GET",route="/v2/self",status="200"} 42' } } } })
  @ApiUnauthorizedResponse({ content: { 'application/json': { schema: { $ref: getSchemaPath(ApiErrorResponse) } } }, description: 'METRICS_TOKEN is set and the request does not carry it, or production without METRICS_TOKEN nor METRICS_PUBLIC' })
  async scrape(@Headers('authorization') authorization: string | undefined): Promise<string> {
    const { token, open } = this.config.metrics;
    if (token && !sameSecret(authorization ?? '', `Bearer ${token}`)) {
      throw new UnauthenticatedError('Metrics need "Authorization: Bearer <METRICS_TOKEN>".');
    }
    if (!token && !open) {
      throw new UnauthenticatedError('Metrics are closed in production: the operator sets METRICS_TOKEN (or METRICS_PUBLIC=true for a private port).');
    }
    return this.metrics.registry.metrics();
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
