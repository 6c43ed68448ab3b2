import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@workbase/shared/http';
import { databaseAway, DatabaseUnavailableError } from '@workbase/shared/persistence';
import { DataSource } from 'typeorm';
import { Readiness } from './readiness';

@ApiTags('Meta')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly readiness: Readiness,
  ) {}

  @Get()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process serves HTTP' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({ summary: 'Readiness: the database answers and the process is not shutting down' })
  @ApiOkResponse({ schema: { example: { status: 'ok', database: 'up' } } })
  @ApiServiceUnavailableResponse({ description: 'The database does not answer (`database_unavailable`, with `Retry-After`), or the process is shutting down (SIGTERM, `service_unavailable`)' })
  async ready() {
    if (this.readiness.draining) throw new ServiceUnavailableException('The service is shutting down.');
    try {
      await this.dataSource.query('SELECT 1');
      return { status: 'ok', database: 'up' };
    } catch (error) {
      // 503 database_unavailable whatever the failure (a balancer takes the process out of rotation), with its cause in the WARN line.
      throw new DatabaseUnavailableError(databaseAway(error)?.cause ?? `the readiness probe failed: ${String((error as Error)?.message ?? error)}`);
    }
  }
}
