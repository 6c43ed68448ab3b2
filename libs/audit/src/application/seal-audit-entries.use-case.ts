import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { type EntryToSeal, GENESIS, type Seal, sealAfter } from '../domain/audit-chain';
import { AuditLogRepository } from '../infrastructure/audit-log.repository';

const SEAL_BATCH = 2000;

/**
 * Links committed audit entries into their workspaces' chains, one batch per transaction: the
 * entries behind the commit horizon in chain order, after each workspace's head. Idempotent (a
 * sealed entry is never picked again) and safe with several workers: one sealer at a time holds
 * the cluster-wide lock, another skips its turn.
 */
@Injectable()
export class SealAuditEntriesUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly entries: AuditLogRepository,
  ) {}

  /** Seals one batch; answers how many entries it sealed (`SEAL_BATCH` means there may be more). */
  async sealBatch(): Promise<number> {
    return this.transactions.run(async () => {
      if (!(await this.entries.lockSealer())) return 0;
      const batch = await this.entries.entriesToSeal(SEAL_BATCH);
      if (batch.length === 0) return 0;
      const byWorkspace = new Map<string, EntryToSeal[]>();
      for (const entry of batch) {
        const entries = byWorkspace.get(entry.workspaceId);
        if (entries) entries.push(entry);
        else byWorkspace.set(entry.workspaceId, [entry]);
      }
      const heads = await this.entries.lockHeads([...byWorkspace.keys()]);
      const seals: Seal[] = [];
      for (const [workspaceId, entries] of byWorkspace) {
        const sealed = sealAfter(heads.get(workspaceId) ?? GENESIS, entries);
        seals.push(...sealed.seals);
        heads.set(workspaceId, sealed.head);
      }
      await this.entries.applySeals(seals, heads);
      return batch.length;
    });
  }

  /** Seals until nothing behind the horizon is left; answers how many entries it sealed. */
  async sealPending(): Promise<number> {
    let total = 0;
    for (;;) {
      const sealed = await this.sealBatch();
      total += sealed;
      if (sealed < SEAL_BATCH) return total;
    }
  }
}
