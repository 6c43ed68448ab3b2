import { Injectable } from '@nestjs/common';
import { newId } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';

/** One workspace membership a browser's sign-in proved, with what the consent page shows. */
export interface SessionMembership {
  readonly workspaceId: string;
  readonly workspaceName: string;
  readonly workspaceSlug: string;
  readonly memberId: string;
  readonly email: string;
}

/**
 * Sign-in sessions: one row per proven membership, all sharing the hash of the browser's session
 * id. Reads the access context's members and workspaces (read-only) so that a suspended member or
 * a deleted workspace drops out of a session at once.
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

  async findLiveMemberships(sessionHash: Buffer, now: Date): Promise<SessionMembership[]> {
    const rows: Array<{ workspace_id: string; workspace_name: string; workspace_slug: string; member_id: string; email: string }> =
      await this.transactions.query(
        `SELECT s.workspace_id, w.name AS workspace_name, w.slug AS workspace_slug, s.member_id, m.email
           FROM oauth_sessions s
           JOIN workspace_members m ON m.workspace_id = s.workspace_id AND m.id = s.member_id
           JOIN workspaces w ON w.id = s.workspace_id
          WHERE s.session_hash = $1 AND s.expires_at > $2 AND m.state = 'active'
          ORDER BY w.name, w.slug`,
        [sessionHash, now],
      );
    return rows.map((row) => ({
      workspaceId: row.workspace_id,
      workspaceName: row.workspace_name,
      workspaceSlug: row.workspace_slug,
      memberId: row.member_id,
      email: row.email,
    }));
  }

  /** Forgets sessions that ended before `before`, in every workspace (maintenance). */
  async purgeExpiredBefore(before: Date): Promise<void> {
    await this.transactions.query(`DELETE FROM oauth_sessions WHERE expires_at < $1`, [before]);
  }

  async deleteByHash(sessionHash: Buffer): Promise<void> {
    await this.transactions.query(`DELETE FROM oauth_sessions WHERE session_hash = $1`, [sessionHash]);
  }
}
