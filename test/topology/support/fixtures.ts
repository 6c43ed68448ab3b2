import type { INestApplication } from '@nestjs/common';
import { CreateWorkspaceUseCase, IssueTokenUseCase } from '@workbase/access';
import { loadConfig } from '@workbase/shared/config';
import { createLogger } from '@workbase/shared/http';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { createApp } from '../../../apps/api/src/app.factory';

export interface TopologyFixtures {
  /** The in-process app the fixtures are made with (its use cases, e.g. RevokeTokenUseCase). */
  readonly app: INestApplication;
  readonly workspaceId: string;
  /** A new all-scope API token of the workspace. */
  token(name: string): Promise<string>;
}

/**
 * A workspace made through the app's own use cases, in this process, on `url` (which the
 * service processes under test migrated), for a suite's tokens; `app.close()` when done.
 * `env`: more settings of the in-process app (e.g. a small DB_POOL_SIZE behind a pooler).
 */
export async function workspaceFixtures(url: string, cursorSecret: string, slug: string, env: Record<string, string> = {}): Promise<TopologyFixtures> {
  const app = await createApp(loadConfig({ ...env, DATABASE_URL: url, LOG_LEVEL: 'silent', CURSOR_SECRET: cursorSecret, RUN_WORKER: 'false' }), url, createLogger('silent'));
  const { workspaceId } = await app.get(CreateWorkspaceUseCase).execute({ name: slug, slug, adminEmail: `admin@${slug}.test` });
  const token = async (name: string) => (await app.get(IssueTokenUseCase).execute({ workspaceId, scopes: ALL_SCOPES, name })).accessToken;
  return { app, workspaceId, token };
}
