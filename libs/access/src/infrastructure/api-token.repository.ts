import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { ApiTokenOrmEntity } from './api-token.orm-entity';

/** A live token with what requests and introspection need, read in one indexed probe. */
export interface TokenGrantRow {
  id: string;
  workspace_id: string;
  scopes: string[];
  client_id: string | null;
  kind: 'service' | 'member';
  /** The granting member of a member token; null for a service token. */
  authorized_by_member_id: string | null;
  /** The granting member's level; null for a service token. */
  access_level: 'admin' | 'member' | null;
  /**
   * What `/v2/self` reports as `authorized_by_workspace_member_id`: the granting member, or for a
   * service token the workspace's longest-standing active admin (else its first member).
   */
  reported_member_id: string;
  issued_at: Date;
  expires_at: Date | null;
  workspace_name: string;
  workspace_slug: string;
  workspace_logo_url: string | null;
}

@Injectable()
export class ApiTokenRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  async insert(token: Omit<ApiTokenOrmEntity, 'issuedAt' | 'revokedAt'>): Promise<ApiTokenOrmEntity> {
    const repo = this.transactions.manager().getRepository(ApiTokenOrmEntity);
    await repo.insert(token);
    return (await repo.findOneBy({ workspaceId: token.workspaceId, id: token.id }))!;
  }

  /**
   * The grant of a token that may be used now: not revoked, not expired, and either a service
   * token of the workspace (no member change ever affects it) or granted by a member who still
   * has access (suspending a member cuts off their tokens at once).
   */
  async findLiveGrantByHash(hash: Buffer): Promise<TokenGrantRow | null> {
    const rows: TokenGrantRow[] = await this.transactions.query(
      `SELECT t.id, t.workspace_id, t.scopes, t.client_id, t.kind, t.authorized_by_member_id, m.access_level,
              COALESCE(t.authorized_by_member_id, (
                SELECT s.id FROM workspace_members s WHERE s.workspace_id = t.workspace_id
                 ORDER BY (s.access_level = 'admin' AND s.state = 'active' AND s.deleted_at IS NULL) DESC, s.created_at, s.id LIMIT 1
              )) AS reported_member_id,
              t.issued_at, t.expires_at, w.name AS workspace_name, w.slug AS workspace_slug, w.logo_url AS workspace_logo_url
         FROM api_tokens t
         LEFT JOIN workspace_members m ON m.workspace_id = t.workspace_id AND m.id = t.authorized_by_member_id
         JOIN workspaces w ON w.id = t.workspace_id
        WHERE t.token_hash = $1
          AND t.revoked_at IS NULL
          AND (t.expires_at IS NULL OR t.expires_at > now())
          AND (t.kind = 'service' OR (m.state = 'active' AND m.deleted_at IS NULL))`,
      [hash],
    );
    return rows[0] ?? null;
  }

  /** Returns true when a live token was revoked by this call. */
  /** The token revoked (its workspace and id, for the audit log), or null when no live token has this hash. */
  async revokeByHash(hash: Buffer): Promise<{ workspaceId: string; tokenId: string } | null> {
    const result: [Array<{ id: string; workspace_id: string }>, number] = await this.transactions
      .manager()
      .query(`UPDATE api_tokens SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL RETURNING id, workspace_id`, [hash]);
    const [row] = result[0];
    return row ? { workspaceId: row.workspace_id, tokenId: row.id } : null;
  }

  async revokeById(workspaceId: string, tokenIds: string[]): Promise<void> {
    if (tokenIds.length === 0) return;
    await this.transactions
      .manager()
      .query(`UPDATE api_tokens SET revoked_at = now() WHERE workspace_id = $1 AND id = ANY ($2::uuid[]) AND revoked_at IS NULL`, [workspaceId, tokenIds]);
  }
}
