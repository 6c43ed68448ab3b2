import { Injectable } from '@nestjs/common';
import { OAuthAppRepository } from '../infrastructure/oauth-app.repository';

export interface OAuthAppSummary {
  readonly client_id: string;
  readonly name: string;
  readonly redirect_uris: readonly string[];
  readonly scopes: string;
  readonly created_at: string;
}

/** The registered apps for operators (the CLI); never their secrets. */
@Injectable()
export class ListOAuthAppsQuery {
  constructor(private readonly apps: OAuthAppRepository) {}

  async execute(): Promise<OAuthAppSummary[]> {
    return (await this.apps.listAll()).map((app) => ({
      client_id: app.clientId,
      name: app.name,
      redirect_uris: app.redirectUris,
      scopes: app.scopes.join(' '),
      created_at: app.createdAt.toISOString(),
    }));
  }
}
