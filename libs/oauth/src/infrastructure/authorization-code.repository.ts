import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';

export interface AuthorizationCodeRecord {
  readonly workspaceId: string;
  readonly id: string;
  readonly clientId: string;
  readonly memberId: string;
  readonly redirectUri: string;
  /** Whether the authorization request named the redirect URI (then the token request must repeat it). */
  readonly redirectUriSent: boolean;
  readonly scopes: readonly string[];
  readonly codeChallenge: string | null;
  readonly codeChallengeMethod: 'S256' | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
  readonly issuedTokenId: string | null;
  /** Whether the member who approved is still an active member of the workspace. */
}

interface CodeRow {
  workspace_id: string;
  id: string;
  client_id: string;
  member_id: string;
  redirect_uri: string;
  redirect_uri_sent: boolean;
  scopes: string[];
  code_challenge: string | null;
  code_challenge_method: 'S256' | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  issued_token_id: string | null;
}

@Injectable()
export class AuthorizationCodeRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  async insert(code: Omit<AuthorizationCodeRecord, 'usedAt' | 'issuedTokenId'> & { codeHash: Buffer }): Promise<void> {
    await this.transactions.query(
      `INSERT INTO oauth_authorization_codes
         (workspace_id, id, code_hash, client_id, member_id, redirect_uri, redirect_uri_sent, scopes, code_challenge, code_challenge_method, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        code.workspaceId,
        code.id,
        code.codeHash,
        code.clientId,
        code.memberId,
        code.redirectUri,
        code.redirectUriSent,
        code.scopes,
        code.codeChallenge,
        code.codeChallengeMethod,
        code.createdAt,
        code.expiresAt,
      ],
    );
  }

  /** The code with this hash, locked for the rest of the transaction so that two exchanges serialise. */
  async findByHashForUpdate(codeHash: Buffer): Promise<AuthorizationCodeRecord | null> {
    const rows: CodeRow[] = await this.transactions.query(
      `SELECT c.workspace_id, c.id, client_id, member_id, redirect_uri, redirect_uri_sent, scopes, code_challenge, code_challenge_method,
              c.created_at, expires_at, used_at, issued_token_id
         FROM oauth_authorization_codes c WHERE code_hash = $1 FOR UPDATE OF c`,
      [codeHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      workspaceId: row.workspace_id,
      id: row.id,
      clientId: row.client_id,
      memberId: row.member_id,
      redirectUri: row.redirect_uri,
      redirectUriSent: row.redirect_uri_sent,
      scopes: row.scopes,
      codeChallenge: row.code_challenge,
      codeChallengeMethod: row.code_challenge_method,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
      issuedTokenId: row.issued_token_id,
    };
  }

  /**
   * Forgets codes that expired before `before`, in every workspace (maintenance, not a workspace
   * operation). Spent codes are kept until then so that a late replay still revokes its token.
   */
  async purgeExpiredBefore(before: Date): Promise<void> {
    await this.transactions.query(`DELETE FROM oauth_authorization_codes WHERE expires_at < $1`, [before]);
  }

  async markUsed(workspaceId: string, id: string, usedAt: Date, issuedTokenId: string): Promise<void> {
    await this.transactions.query(`UPDATE oauth_authorization_codes SET used_at = $3, issued_token_id = $4 WHERE workspace_id = $1 AND id = $2`, [workspaceId, id, usedAt, issuedTokenId]);
  }
}
