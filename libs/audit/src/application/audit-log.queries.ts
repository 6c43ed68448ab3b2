import { Injectable } from '@nestjs/common';
import { type ChainBreak, checkChainLink, contentHolds, GENESIS } from '../domain/audit-chain';
import type { AuditEntryView, AuditFilter, AuditPosition } from '../domain/audit-entry';
import { AuditLogRepository } from '../infrastructure/audit-log.repository';

const VERIFY_BATCH = 1000;

export interface ChainVerification {
  /** Sealed entries walked and found holding. */
  readonly entriesChecked: number;
  /** Entries not sealed yet whose content hash was checked. */
  readonly unsealedChecked: number;
  readonly anchorSeq: string;
  readonly lastSeq: string;
  readonly firstBreak: ChainBreak | null;
}

/** The reads of the audit log: a filtered page, and the chain's verification. */
@Injectable()
export class AuditLogQueries {
  constructor(private readonly entries: AuditLogRepository) {}

  async page(workspaceId: string, filter: AuditFilter, before: AuditPosition | null, limit: number): Promise<{ rows: AuditEntryView[]; hasMore: boolean }> {
    const rows = await this.entries.listEntries(workspaceId, filter, before, limit);
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  /**
   * Recomputes the workspace's sealed chain from its anchor, in batches: each entry's content hash
   * from its fields, its link to the previous entry, its own link, and that no entry up to the head
   * is gone. Then checks the content hash of each entry the sealer has not reached yet.
   */
  async verify(workspaceId: string): Promise<ChainVerification> {
    const head = (await this.entries.chainHead(workspaceId)) ?? { anchor: GENESIS, last: GENESIS };
    const state = { seq: BigInt(head.anchor.seq), hash: head.anchor.hash };
    let checked = 0;
    const result = (firstBreak: ChainBreak | null, unsealedChecked = 0): ChainVerification => ({
      entriesChecked: checked,
      unsealedChecked,
      anchorSeq: head.anchor.seq,
      lastSeq: head.last.seq,
      firstBreak,
    });
    for (;;) {
      const batch = await this.entries.sealedAfter(workspaceId, state.seq.toString(), VERIFY_BATCH);
      for (const entry of batch) {
        const broken = checkChainLink(state, entry);
        if (broken) return result(broken);
        checked += 1;
      }
      if (batch.length < VERIFY_BATCH) break;
    }
    // Entries cut from the end of the chain show as a missing entry after the last one left
    // (entries sealed since the head was read only take the walk further).
    if (state.seq < BigInt(head.last.seq)) return result({ seq: (state.seq + 1n).toString(), id: null, reason: 'entry_missing' });
    const unsealed = await this.entries.unsealed(workspaceId);
    const altered = unsealed.find((entry) => !contentHolds(entry));
    return result(altered ? { seq: null, id: altered.id, reason: 'content_altered' } : null, unsealed.length);
  }
}
