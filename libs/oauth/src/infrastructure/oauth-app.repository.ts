import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';

/** A registered client. Global (not per workspace): see the migration and libs/oauth/README.md. */
export interface OAuthApp {
  readonly clientId: string;
  readonly clientSecretHash: Buffer;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly scopes: readonly string[];
  readonly createdAt: Date;
}

interface AppRow {
  client_id: string;
  client_secret_hash: Buffer;
  name: string;
  redirect_uris: string[];
  scopes: string[];
  created_at: Date;
}

@Injectable()
export class OAuthAppRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  async insert(app: Omit<OAuthApp, 'createdAt'>): Promise<void> {
    await this.transactions
      .manager()
      .query(`INSERT INTO oauth_apps (client_id, client_secret_hash, name, redirect_uris, scopes) VALUES ($1, $2, $3, $4, $5)`, [
        app.clientId,
        app.clientSecretHash,
        app.name,
        app.redirectUris,
        app.scopes,
      ]);
  }

  async findByClientId(clientId: string): Promise<OAuthApp | null> {
    if (!isUuid(clientId)) return null;
    const rows: AppRow[] = await this.transactions
      .manager()
      .query(`SELECT client_id, client_secret_hash, name, redirect_uris, scopes, created_at FROM oauth_apps WHERE client_id = $1`, [clientId]);
    return rows[0] ? toApp(rows[0]) : null;
  }

  async listAll(): Promise<OAuthApp[]> {
    const rows: AppRow[] = await this.transactions
      .manager()
      .query(`SELECT client_id, client_secret_hash, name, redirect_uris, scopes, created_at FROM oauth_apps ORDER BY created_at, client_id`);
    return rows.map(toApp);
  }
}

function toApp(row: AppRow): OAuthApp {
  return {
    clientId: row.client_id,
    clientSecretHash: row.client_secret_hash,
    name: row.name,
    redirectUris: row.redirect_uris,
    scopes: row.scopes,
    createdAt: row.created_at,
  };
}
