export { AuditModule } from './audit.module';
export { AuditLogQueries, type ChainVerification } from './application/audit-log.queries';
export { SweepAuditRetentionUseCase } from './application/sweep-audit-retention.use-case';
export type { ChainBreak } from './domain/audit-chain';
export { AuditRetentionSweeper } from './application/audit-retention.sweeper';
