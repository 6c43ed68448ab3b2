import { Controller, Get, Header, Headers, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ApiErrorResponse, Public } from '@workbase/shared/http';
import { UnauthenticatedError } from '@workbase/shared/kernel';
import { timingSafeEqual } from 'node:crypto';
import { Metrics } from './metrics';

@ApiTags('Meta')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Public to the scrapers an operator allows: open when METRICS_TOKEN is unset (bind the port
   * privately), otherwise only with that token, which is no workspace token.
   */
  @Get()
  @Public()
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format); needs `Bearer $METRICS_TOKEN` when that is set' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Metrics in the Prometheus text format', content: { 'text/plain': { schema: { type: 'string', example: 'workbase_http_request_duration_seconds_count{method="GET",route="/v2/self",status="200"} 42' } } } })
  @ApiUnauthorizedResponse({ type: ApiErrorResponse, description: 'METRICS_TOKEN is set and the request does not carry it' })
  async scrape(@Headers('authorization') authorization: string | undefined): Promise<string> {
    const expected = this.config.metricsToken;
    if (expected && !sameSecret(authorization ?? '', `Bearer ${expected}`)) {
      throw new UnauthenticatedError('Metrics need "Authorization: Bearer <METRICS_TOKEN>".');
    }
    return this.metrics.registry.metrics();
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
