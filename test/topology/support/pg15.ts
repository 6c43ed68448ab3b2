import { execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/processes';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 binaries (`apt-get install postgresql-15`); `.ci/run` passes PG_BIN. */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * PostgreSQL refuses to run as root, and so does PgBouncer; CI runs as root. Commands that start
 * a server go through `runuser -u postgres` there, and the folders they use belong to postgres.
 */
const AS_ROOT = process.getuid?.() === 0;
const SERVICE_USER = 'postgres';

export function asServiceUser(command: string, args: string[]): [string, string[]] {
  return AS_ROOT ? ['runuser', ['-u', SERVICE_USER, '--', command, ...args]] : [command, args];
}

export async function runAsServiceUser(command: string, args: string[]): Promise<string> {
  const [file, argv] = asServiceUser(command, args);
  const { stdout } = await run(file, argv, { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** A folder the service user owns (mode 755 so that the test process can read its logs). */
export function serviceFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(folder, 0o755);
  if (AS_ROOT) {
    const { uid, gid } = serviceUserIds();
    chownSync(folder, uid, gid);
  }
  return folder;
}

function serviceUserIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith(`${SERVICE_USER}:`));
  if (!line) throw new Error(`no ${SERVICE_USER} user: apt-get install postgresql-15 creates it`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Writes a file the service user can read (configuration, password files). */
export function writeServiceFile(file: string, content: string, mode = 0o600): void {
  writeFileSync(file, content, { mode });
  if (AS_ROOT) {
    const { uid, gid } = serviceUserIds();
    chownSync(file, uid, gid);
  }
}

export interface Pg15Cluster {
  readonly dataDir: string;
  readonly port: number;
  readonly password: string;
  /** `postgres://postgres:…@127.0.0.1:port/<database>` */
  url(database?: string): string;
  log(): string;
  /** `pg_ctl stop -m fast` (a no-op when already stopped). */
  stop(): Promise<void>;
  /** SIGKILL to the postmaster, as a crashed host: no shutdown checkpoint, clients see a reset. */
  kill9(): Promise<void>;
  /** Stops it if it runs, and removes its folder. */
  destroy(): Promise<void>;
}

export interface Pg15Options {
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string>;
  /** An existing data folder (a standby made with `pg_basebackup`) instead of a new `initdb`. */
  dataDir?: string;
  password?: string;
}

/** A throwaway Debian PostgreSQL 15 cluster on a free loopback port, with SCRAM passwords as production has them. */
export async function startPg15(options: Pg15Options = {}): Promise<Pg15Cluster> {
  const folder = options.dataDir ? path.dirname(options.dataDir) : serviceFolder('workbase-pg15-');
  const dataDir = options.dataDir ?? path.join(folder, 'data');
  const password = options.password ?? `pw${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  if (!options.dataDir) {
    const pwfile = path.join(folder, 'pwfile');
    writeServiceFile(pwfile, `${password}\n`);
    await runAsServiceUser(`${PG_BIN}/initdb`, ['-D', dataDir, '-U', 'postgres', '-A', 'scram-sha-256', `--pwfile=${pwfile}`, '--no-sync']);
    // Replication connections from loopback, for pg_basebackup and standbys.
    const hba = path.join(dataDir, 'pg_hba.conf');
    writeServiceFile(hba, `${readFileSync(hba, 'utf8')}\nhost replication all 127.0.0.1/32 scram-sha-256\n`);
  }
  const port = await freePort();
  const logFile = path.join(folder, `server-${port}.log`);
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: folder,
    max_connections: '200',
    fsync: 'off',
    full_page_writes: 'off',
    ...options.settings,
  };
  const serverOptions = [`-p ${port}`, ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)].join(' ');
  await runAsServiceUser(`${PG_BIN}/pg_ctl`, ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start', '-o', serverOptions]);
  const url = (database = 'postgres') => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  const postmasterPid = () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const stop = async () => {
    await runAsServiceUser(`${PG_BIN}/pg_ctl`, ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
  };
  return {
    dataDir,
    port,
    password,
    url,
    log: () => {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
    stop,
    kill9: async () => {
      let pid: number;
      try {
        pid = postmasterPid();
      } catch {
        return;
      }
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        return;
      }
      while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    destroy: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command as the service user and resolves when it exits 0 (for pg_basebackup, pg_ctl promote). */
export function spawnAsServiceUser(command: string, args: string[]): Promise<void> {
  const [file, argv] = asServiceUser(command, args);
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr}`))));
  });
}
