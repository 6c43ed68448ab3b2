import { Injectable } from '@nestjs/common';
import { type ChainBreak, checkChainLink } from '../domain/audit-chain';
import type { AuditEntryView, AuditFilter } from '../domain/audit-entry';
import { AuditLogRepository } from '../infrastructure/audit-log.repository';

const VERIFY_BATCH = 1000;

export interface ChainVerification {
  readonly entriesChecked: number;
  readonly anchorSeq: string;
  readonly lastSeq: string;
  readonly firstBreak: ChainBreak | null;
}

/** The reads of the audit log: a filtered page, and the chain's verification. */
@Injectable()
export class AuditLogQueries {
  constructor(private readonly entries: AuditLogRepository) {}

  async page(workspaceId: string, filter: AuditFilter, beforeSeq: string | null, limit: number): Promise<{ rows: AuditEntryView[]; hasMore: boolean }> {
    const rows = await this.entries.listEntries(workspaceId, filter, beforeSeq, limit);
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  /**
   * Recomputes the workspace's chain from its anchor, in batches: each entry's content hash from its
   * fields, its link to the previous entry, its own hash, and that no entry up to the head is gone.
   */
  async verify(workspaceId: string): Promise<ChainVerification> {
    const anchor = await this.entries.chainAnchor(workspaceId);
    if (!anchor) return { entriesChecked: 0, anchorSeq: '0', lastSeq: '0', firstBreak: null };
    const state = { seq: BigInt(anchor.seq), hash: anchor.hash };
    let checked = 0;
    for (;;) {
      const batch = await this.entries.chainBatch(workspaceId, state.seq.toString(), VERIFY_BATCH);
      for (const entry of batch) {
        const broken = checkChainLink(state, entry);
        if (broken) return { entriesChecked: checked, anchorSeq: anchor.seq, lastSeq: anchor.lastSeq, firstBreak: broken };
        checked += 1;
      }
      if (batch.length < VERIFY_BATCH) break;
    }
    // Entries cut from the end show as a missing entry after the last one kept (entries committed
    // since the head was read only go further).
    const firstBreak: ChainBreak | null = state.seq >= BigInt(anchor.lastSeq) ? null : { seq: (state.seq + 1n).toString(), id: null, reason: 'entry_missing' };
    return { entriesChecked: checked, anchorSeq: anchor.seq, lastSeq: anchor.lastSeq, firstBreak };
  }
}
