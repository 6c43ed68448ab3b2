import { Injectable } from '@nestjs/common';
import { hashAccessToken } from '../domain/access-token';
import { ApiTokenRepository } from '../infrastructure/api-token.repository';

@Injectable()
export class RevokeTokenUseCase {
  constructor(private readonly tokens: ApiTokenRepository) {}

  /** Revokes a token by its value; the token revoked, or null when no live token matched. Unknown tokens are not an error (RFC 7009). */
  execute(token: string): Promise<{ workspaceId: string; tokenId: string } | null> {
    return this.tokens.revokeByHash(hashAccessToken(token));
  }

  revokeByIds(workspaceId: string, tokenIds: string[]): Promise<void> {
    return this.tokens.revokeById(workspaceId, tokenIds);
  }
}
