import { Injectable } from '@nestjs/common';
import { newId } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';

/**
 * Sign-in sessions: one row per proven membership, all sharing the hash of the browser's session
 * id. Only the pairs: who is still active, and the workspace's name, the access context answers
 * (so a suspended member or a deleted workspace drops out of a session at once).
 */
@Injectable()
export class SignInSessionRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  async insert(sessionHash: Buffer, memberships: ReadonlyArray<{ workspaceId: string; memberId: string }>, expiresAt: Date): Promise<void> {
    for (const membership of memberships) {
      await this.transactions
        .manager()
        .query(`INSERT INTO oauth_sessions (workspace_id, id, session_hash, member_id, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
          membership.workspaceId,
          newId(),
          sessionHash,
          membership.memberId,
          expiresAt,
        ]);
    }
  }

  /** The (workspace, member) pairs a live session proved; empty for an unknown or expired one. */
  async findLiveMemberships(sessionHash: Buffer, now: Date): Promise<Array<{ workspaceId: string; memberId: string }>> {
    const rows = await this.transactions.query<{ workspace_id: string; member_id: string }>(
      `SELECT workspace_id, member_id FROM oauth_sessions WHERE session_hash = $1 AND expires_at > $2`,
      [sessionHash, now],
    );
    return rows.map((row) => ({ workspaceId: row.workspace_id, memberId: row.member_id }));
  }

  /** Forgets sessions that ended before `before`, in every workspace (maintenance). */
  async purgeExpiredBefore(before: Date): Promise<void> {
    await this.transactions.query(`DELETE FROM oauth_sessions WHERE expires_at < $1`, [before]);
  }

  async deleteByHash(sessionHash: Buffer): Promise<void> {
    await this.transactions.query(`DELETE FROM oauth_sessions WHERE session_hash = $1`, [sessionHash]);
  }
}
