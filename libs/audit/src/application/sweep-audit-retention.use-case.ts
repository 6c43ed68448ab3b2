import { Injectable } from '@nestjs/common';
import { AuditLogRepository } from '../infrastructure/audit-log.repository';

/** Removes entries older than the retention (AUDIT_RETENTION_DAYS), workspace by workspace, keeping each chain verifiable. */
@Injectable()
export class SweepAuditRetentionUseCase {
  constructor(private readonly entries: AuditLogRepository) {}

  async execute(retentionDays: number, now: Date = new Date()): Promise<{ removed: number }> {
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
    let removed = 0;
    for (const workspaceId of await this.entries.workspacesWithEntriesBefore(cutoff)) {
      removed += await this.entries.cutBefore(workspaceId, cutoff);
    }
    return { removed };
  }
}
