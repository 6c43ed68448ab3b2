import { Injectable } from '@nestjs/common';
import { hashAccessToken } from '../domain/access-token';
import { ApiTokenRepository } from '../infrastructure/api-token.repository';

@Injectable()
export class RevokeTokenUseCase {
  constructor(private readonly tokens: ApiTokenRepository) {}

  /** Revokes a token by its value; true when a live token was revoked. Unknown tokens are not an error (RFC 7009). */
  execute(token: string): Promise<boolean> {
    return this.tokens.revokeByHash(hashAccessToken(token));
  }

  revokeByIds(workspaceId: string, tokenIds: string[]): Promise<void> {
    return this.tokens.revokeById(workspaceId, tokenIds);
  }
}
