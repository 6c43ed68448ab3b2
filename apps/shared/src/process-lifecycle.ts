import { type AppConfig, loadConfig } from '@workbase/shared/config';
import { createLogger, type LogFormat, resolveLogFormat } from '@workbase/shared/http';
import { type DatabaseHandle, openDatabase } from '@workbase/shared/persistence';
import type { Logger } from 'pino';

/** A process asked to stop is gone within this long (systemd's and Docker's defaults leave 10 s before SIGKILL). */
export const SHUTDOWN_DEADLINE_MS = 9_000;

/** Exit status when the embedded database this process joined cannot be followed (EX_TEMPFAIL: try again). */
export const EXIT_DATABASE_LOST = 75;

/**
 * What every process (the API, a worker) starts from: its config, log format and logger, and its
 * database, the embedded cluster started or joined when DATABASE_URL is unset (PostgreSQL's own
 * lines at debug, first-start progress at info).
 */
export async function openProcessDatabase(): Promise<{ config: AppConfig; format: LogFormat; logger: Logger; database: DatabaseHandle }> {
  const config = loadConfig();
  const format = resolveLogFormat(config.logFormat);
  const logger = createLogger(config.logLevel, 1, format);
  if (!config.databaseUrl) logger.info(`starting the embedded PostgreSQL in ${config.dataDir}`);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    databaseDirectUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    log: (line) => logger.debug({ component: 'postgres' }, line),
    progress: (line) => logger.info(line),
  });
  return { config, format, logger, database };
}

/** The time a stopping process has: ms since the signal, and ms of SHUTDOWN_DEADLINE_MS left. */
export interface ShutdownClock {
  elapsed(): number;
  left(): number;
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT (later ones are ignored while it runs); a process that
 * has not exited by the deadline exits non-zero (the timer does not keep it alive).
 */
export function stopOnSignal(logger: Logger, stop: (signal: NodeJS.Signals, clock: ShutdownClock) => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const startedAt = Date.now();
    setTimeout(() => {
      logger.error(`shutdown did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting now`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS + 500).unref();
    const elapsed = () => Date.now() - startedAt;
    void stop(signal, { elapsed, left: () => SHUTDOWN_DEADLINE_MS - elapsed() });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** Resolves true when `work` settles within `ms`, false when the time runs out first (the work goes on). */
export async function withinBudget(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([work.then(() => true, () => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A process that joined the embedded cluster of another process follows that cluster's restarts on
 * the same address (its pools reconnect); when it cannot (the cluster came back elsewhere, or not
 * at all), it exits non-zero with the reason, for its supervisor to start it again, rather than
 * logging connection errors forever.
 */
export function exitWhenDatabaseIsLost(database: DatabaseHandle, config: AppConfig, logger: Logger): void {
  database.watch((reason) => {
    logger.fatal(`${reason}; exiting with status ${EXIT_DATABASE_LOST} so that a supervisor starts this process again (it then joins or starts the cluster)`);
    process.exit(EXIT_DATABASE_LOST);
  }, config.embeddedRejoinWithinMs);
}

/**
 * The few lines a process always prints, whatever LOG_LEVEL says (as `npm start` always has): that
 * it is ready, where, and the demo token once. Same format as the other logs.
 */
export function announcer(format: LogFormat): Logger {
  return createLogger('info', 1, format);
}

export function describeDatabase(database: DatabaseHandle, config: AppConfig): string {
  if (!database.embedded) {
    const url = new URL(database.url);
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
  }
  return `embedded PostgreSQL in ${config.dataDir} (port ${new URL(database.url).port})`;
}
