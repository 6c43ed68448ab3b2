import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { CursorCodec } from '@workbase/shared/http';
import { AuditLogQueries } from './application/audit-log.queries';
import { AuditRetentionSweeper } from './application/audit-retention.sweeper';
import { SweepAuditRetentionUseCase } from './application/sweep-audit-retention.use-case';
import { AuditLogRepository } from './infrastructure/audit-log.repository';
import { AuditLogController } from './interface/http/audit-log.controller';

/** The audit log: reading it, verifying its chain, and its retention. Entries are written by the persistence layer beside each event. */
@Module({
  controllers: [AuditLogController],
  providers: [
    AuditLogRepository,
    AuditLogQueries,
    SweepAuditRetentionUseCase,
    AuditRetentionSweeper,
    { provide: CursorCodec, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret) },
  ],
  exports: [AuditLogQueries, SweepAuditRetentionUseCase, AuditRetentionSweeper],
})
export class AuditModule {}
