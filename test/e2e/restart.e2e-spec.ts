import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface Server {
  readonly child: ChildProcess;
  readonly output: () => string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm start` without the build: the real entry point, on the embedded database in `dataDir`. */
async function startServer(dataDir: string, port: number): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn', RUN_WORKER: 'false' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/api/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (!output.includes('Workbase is listening')) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function postmasterPid(dataDir: string): number | null {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the server on its embedded database', () => {
  let dataDir: string;
  let server: Server | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'workbase-restart-'));
    chmodSync(dataDir, 0o755);
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
    const orphan = postmasterPid(dataDir);
    if (orphan && isAlive(orphan)) process.kill(orphan, 'SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds a demo workspace once, survives kill -9, keeps its data, and stops PostgreSQL on SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = await startServer(dataDir, port);
    const token = /\s(wb_[A-Za-z0-9_-]+)\s/.exec(server.output())?.[1];
    expect(token).toBeDefined();
    const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    expect(await (await fetch(`${base}/v2/self`, { headers: auth })).json()).toMatchObject({ active: true, workspace_slug: 'demo' });
    const created = await fetch(`${base}/v2/objects`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ data: { api_slug: 'survivors', singular_noun: 'Survivor', plural_noun: 'Survivors' } }),
    });
    expect(created.status).toBe(200);

    // kill -9: no shutdown hook runs, the postmaster is orphaned with its pid file in place.
    const orphan = postmasterPid(dataDir);
    expect(orphan).not.toBeNull();
    server.child.kill('SIGKILL');
    await exited(server.child);
    expect(isAlive(orphan!)).toBe(true);

    server = await startServer(dataDir, port);
    expect(server.output()).not.toContain('First start');
    const object = await fetch(`${base}/v2/objects/survivors`, { headers: auth });
    expect(object.status).toBe(200);
    expect(((await object.json()) as { data: { api_slug: string } }).data.api_slug).toBe('survivors');
    expect(isAlive(orphan!)).toBe(false);

    // A graceful stop takes its PostgreSQL down with it.
    const current = postmasterPid(dataDir);
    expect(current).not.toBeNull();
    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
    for (let i = 0; i < 50 && isAlive(current!); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(current!)).toBe(false);
  }, 240_000);
});
