import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CreateMemberUseCase, CreateWorkspaceUseCase, IssueTokenUseCase } from '@workbase/access';
import { loadConfig, type AppConfig } from '@workbase/shared/config';
import { createLogger } from '@workbase/shared/http';
import { ALL_SCOPES, type Scope } from '@workbase/shared/kernel';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createApp } from '../../apps/api/src/app.factory';
import { contractOf, type OpenApiContract } from './openapi-contract';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestWorkspace {
  readonly workspaceId: string;
  readonly slug: string;
  readonly adminMemberId: string;
  /** A token with every scope, authorized by the admin. */
  readonly token: string;
}

export interface TestApp {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  readonly database: TestDatabase;
  /** supertest against the in-process HTTP server; each answer must keep the OpenAPI contract (see `OpenApiContract`). */
  readonly http: () => TestAgent;
  /** Base URL of the app listening on loopback (for real HTTP clients). Only set with `listen: true`. */
  readonly baseUrl: string | null;
  createWorkspace(slug?: string): Promise<TestWorkspace>;
  createMember(workspaceId: string, email: string, accessLevel?: 'admin' | 'member', password?: string): Promise<string>;
  tokenFor(workspaceId: string, scopes: readonly Scope[], options?: { memberId?: string; expiresAt?: Date; clientId?: string }): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment for loadConfig (RATE_LIMIT_*, BODY_LIMIT, ...). Rate limits are off unless set. */
  readonly env?: Record<string, string>;
  /** Extra modules, e.g. a probe controller that exercises the request pipeline. */
  readonly imports?: Type[];
  /** Listen on a loopback port, for tests that use a real HTTP client. */
  readonly listen?: boolean;
}

let workspaceCounter = 0;

/** The real application on its own migrated database, with fixtures that go through the use cases. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_ENABLED: 'false',
    BASE_URL: 'http://localhost:3000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    RUN_WORKER: 'false',
    DB_POOL_SIZE: '20',
    ...options.env,
    DATABASE_URL: database.url,
  });
  const app = await createApp(config, database.url, createLogger(config.logLevel), options.imports ?? []);
  let baseUrl: string | null = null;
  if (options.listen) {
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as { port: number };
    baseUrl = `http://127.0.0.1:${address.port}`;
  }
  const server = app.getHttpServer();
  let contract: OpenApiContract | undefined;
  return {
    app,
    config,
    database,
    baseUrl,
    // Every answer read through http() is checked against the app's own OpenAPI document.
    http: () => (contract ??= contractOf(app, config.baseUrl)).checking(request(server)),
    async createWorkspace(slug) {
      const chosen = slug ?? `ws-${process.pid}-${++workspaceCounter}`;
      const created = await app.get(CreateWorkspaceUseCase).execute({ name: `Workspace ${chosen}`, slug: chosen, adminEmail: `admin@${chosen}.test` });
      const token = await app.get(IssueTokenUseCase).execute({ workspaceId: created.workspaceId, scopes: ALL_SCOPES, name: 'test' });
      return { workspaceId: created.workspaceId, slug: chosen, adminMemberId: created.adminMemberId, token: token.accessToken };
    },
    async createMember(workspaceId, email, accessLevel = 'member', password) {
      return (await app.get(CreateMemberUseCase).execute({ workspaceId, email, accessLevel, password })).memberId;
    },
    async tokenFor(workspaceId, scopes, tokenOptions = {}) {
      const issued = await app.get(IssueTokenUseCase).execute({
        workspaceId,
        scopes,
        authorizedByMemberId: tokenOptions.memberId,
        expiresAt: tokenOptions.expiresAt,
        clientId: tokenOptions.clientId,
      });
      return issued.accessToken;
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
