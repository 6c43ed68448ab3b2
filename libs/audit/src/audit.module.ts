import { Module } from '@nestjs/common';
import { CURSOR_CODEC_PROVIDER } from '@workbase/shared/http';
import { AuditLogQueries } from './application/audit-log.queries';
import { AuditRetentionSweeper } from './application/audit-retention.sweeper';
import { AuditSealer } from './application/audit-sealer';
import { SealAuditEntriesUseCase } from './application/seal-audit-entries.use-case';
import { SweepAuditRetentionUseCase } from './application/sweep-audit-retention.use-case';
import { AuditLogRepository } from './infrastructure/audit-log.repository';
import { AuditLogController } from './interface/http/audit-log.controller';

/**
 * The audit log: `GET /v2/audit_log`, its verification, and the sealer and retention sweep the
 * worker runs. Entries are written by the persistence layer beside each event.
 */
@Module({
  controllers: [AuditLogController],
  providers: [AuditLogRepository, AuditLogQueries, SealAuditEntriesUseCase, AuditSealer, SweepAuditRetentionUseCase, AuditRetentionSweeper, CURSOR_CODEC_PROVIDER],
  exports: [AuditLogQueries, SealAuditEntriesUseCase, AuditSealer, SweepAuditRetentionUseCase, AuditRetentionSweeper],
})
export class AuditModule {}

/** What a standalone worker needs of the audit log: the sealer that chains entries, and the retention sweep. */
@Module({
  providers: [AuditLogRepository, SealAuditEntriesUseCase, AuditSealer, SweepAuditRetentionUseCase, AuditRetentionSweeper],
  exports: [AuditSealer, AuditRetentionSweeper, SealAuditEntriesUseCase, SweepAuditRetentionUseCase],
})
export class AuditWorkerModule {}
