import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ALL_SCOPES, newId, parseScopeList, type Scope, ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { redirectUriProblem } from '../domain/redirect-uri';
import { CLIENT_SECRET_PREFIX, generateSecret } from '../domain/secrets';
import { OAuthAppRepository } from '../infrastructure/oauth-app.repository';

export interface CreateOAuthAppCommand {
  readonly name: string;
  readonly redirectUris: readonly string[];
  /** Space-separated scopes the app may be granted; default all. */
  readonly scopes?: string | null;
}

export interface CreatedOAuthApp {
  readonly clientId: string;
  /** Shown once; only its hash is stored. */
  readonly clientSecret: string;
  readonly scopes: readonly Scope[];
  readonly redirectUris: readonly string[];
}

@Injectable()
export class CreateOAuthAppUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly apps: OAuthAppRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(command: CreateOAuthAppCommand): Promise<CreatedOAuthApp> {
    const name = command.name.trim();
    if (!name || name.length > 200) throw new ValidationError('name must be 1 to 200 characters');
    const redirectUris = [...new Set(command.redirectUris.map((uri) => uri.trim()))];
    if (redirectUris.length === 0) throw new ValidationError('at least one redirect URI is required');
    const origin = new URL(this.config.baseUrl).origin;
    for (const uri of redirectUris) {
      const problem = redirectUriProblem(uri, origin);
      if (problem) throw new ValidationError(problem);
    }
    const { scopes, unknown } = command.scopes == null || command.scopes.trim() === '' ? { scopes: [...ALL_SCOPES], unknown: [] } : parseScopeList(command.scopes);
    if (unknown.length > 0) throw new ValidationError(`unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
    if (scopes.length === 0) throw new ValidationError('scopes must name at least one scope');

    const secret = generateSecret(CLIENT_SECRET_PREFIX);
    const clientId = newId();
    await this.transactions.run(() => this.apps.insert({ clientId, clientSecretHash: secret.hash, name, redirectUris, scopes }));
    return { clientId, clientSecret: secret.value, scopes, redirectUris };
  }
}
