import { Module } from '@nestjs/common';
import { SqlQueryService } from './application/sql-query.service';
import { SqlCatalogRepository } from './infrastructure/sql-catalog.repository';
import { SqlExecutor } from './infrastructure/sql-executor';
import { SqlController } from './interface/http/sql.controller';

/** Read-only, workspace-sandboxed SQL over objects, lists and activities (see README.md). */
@Module({
  controllers: [SqlController],
  providers: [SqlCatalogRepository, SqlExecutor, SqlQueryService],
  exports: [SqlQueryService],
})
export class SqlModule {}
