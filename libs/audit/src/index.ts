export { AuditModule, AuditWorkerModule } from './audit.module';
export { AuditLogQueries, type ChainVerification } from './application/audit-log.queries';
export { SealAuditEntriesUseCase } from './application/seal-audit-entries.use-case';
export { SweepAuditRetentionUseCase } from './application/sweep-audit-retention.use-case';
export { AuditSealer } from './application/audit-sealer';
export { AuditRetentionSweeper } from './application/audit-retention.sweeper';
export type { ChainBreak } from './domain/audit-chain';
