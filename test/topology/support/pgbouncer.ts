import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../support/processes';
import { asServiceUser, serviceFolder, writeServiceFile } from './pg15';

/** Debian's PgBouncer (`apt-get install pgbouncer`). */
export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

export type PoolMode = 'session' | 'transaction';

export interface PgBouncer {
  readonly port: number;
  /** `postgres://<user>:…@127.0.0.1:<port>/<database>`: the database entry of the ini. */
  url(): string;
  log(): string;
  /** Ends it, and removes its folder (ini, auth file, log). */
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  readonly mode: PoolMode;
  /** The PostgreSQL server behind it. */
  readonly serverPort: number;
  readonly database: string;
  readonly user: string;
  readonly password: string;
  /** Server connections per database and user: what a deployment sizes from its processes (README, Connection budgets). */
  readonly poolSize: number;
}

/**
 * PgBouncer as a deployment runs it: the stock defaults plus only what every deployment sets — its
 * address, how clients authenticate (SCRAM, the password in its auth file), the one database
 * entry, the pool mode and the server pool's size. Nothing that bends it to Workbase (no
 * `ignore_startup_parameters`, no `server_reset_query_always`). Runs in the foreground as the
 * service user; `stop()` ends it with SIGTERM (immediate shutdown).
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const folder = serviceFolder('workbase-pgbouncer-');
  const port = await freePort();
  const logFile = path.join(folder, 'pgbouncer.log');
  const pidFile = path.join(folder, 'pgbouncer.pid');
  writeServiceFile(path.join(folder, 'userlist.txt'), `"${options.user}" "${options.password}"\n`);
  const ini = [
    '[databases]',
    `${options.database} = host=127.0.0.1 port=${options.serverPort} dbname=${options.database}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    `unix_socket_dir = ${folder}`,
    `logfile = ${logFile}`,
    `pidfile = ${pidFile}`,
    'auth_type = scram-sha-256',
    `auth_file = ${path.join(folder, 'userlist.txt')}`,
    `pool_mode = ${options.mode}`,
    `default_pool_size = ${options.poolSize}`,
    '',
  ].join('\n');
  const iniFile = path.join(folder, 'pgbouncer.ini');
  writeServiceFile(iniFile, ini);
  const [file, argv] = asServiceUser(PGBOUNCER_BIN, [iniFile]);
  const child: ChildProcess = spawn(file, argv, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = () => `postgres://${options.user}:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${options.database}`;
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const probe = new Client({ connectionString: url() });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.query('SELECT 1');
      await probe.end();
      break;
    } catch (error) {
      await probe.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pgbouncer did not start: ${(error as Error).message}\n${log()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    port,
    url,
    log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          // runuser forwards nothing reliably: signal PgBouncer itself, by its pid file.
          process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
        } catch {
          child.kill('SIGTERM');
        }
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
