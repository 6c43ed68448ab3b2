import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';

export interface MemberCredentials {
  readonly workspaceId: string;
  readonly memberId: string;
  readonly passwordHash: string | null;
}

/**
 * The active members with an email, in every workspace, with their password hashes: a member is
 * per workspace, and one person signs in once for all the workspaces whose password they know.
 * A read-only view of the access context's table (which does not expose password hashes).
 */
@Injectable()
export class MemberCredentialsReader {
  constructor(private readonly transactions: TransactionRunner) {}

  async findActiveByEmail(email: string): Promise<MemberCredentials[]> {
    const rows: Array<{ workspace_id: string; id: string; password_hash: string | null }> = await this.transactions
      .manager()
      .query(`SELECT workspace_id, id, password_hash FROM workspace_members WHERE lower(email) = lower($1) AND state = 'active' ORDER BY created_at LIMIT 50`, [
        email,
      ]);
    return rows.map((row) => ({ workspaceId: row.workspace_id, memberId: row.id, passwordHash: row.password_hash }));
  }
}
