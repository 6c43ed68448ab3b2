import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { runInRequestContext } from '@workbase/shared/persistence';

/** `json`: one JSON object per line, for collectors; `pretty`: short coloured lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT when set; otherwise pretty when the output is a terminal, JSON lines when it is not. */
export function resolveLogFormat(configured: LogFormat | null, fd: 1 | 2 = 1): LogFormat {
  return configured ?? ((fd === 1 ? process.stdout : process.stderr).isTTY ? 'pretty' : 'json');
}

/** Logs to stdout (or another descriptor: the CLI keeps stdout for its one JSON answer). */
export function createLogger(level: string, fd: 1 | 2 = 1, format: LogFormat = 'json'): Logger {
  const options = {
    level,
    base: { service: 'workbase' },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
  };
  if (format === 'pretty') {
    // Synchronous, in this thread: no transport worker to outlive a process.exit().
    return pino(options, pinoPretty({ destination: fd, sync: true, colorize: Boolean((fd === 1 ? process.stdout : process.stderr).isTTY), translateTime: 'HH:MM:ss', ignore: 'pid,hostname,service,context,url,docs,database,worker' }));
  }
  return pino(options, pino.destination({ fd, sync: fd === 2 }));
}

const REQUEST_ID = /^[\w.-]{1,128}$/;

type LoggedRequest = IncomingMessage & { id?: string };

/**
 * Structured request logs; every request gets an id (the caller's `X-Request-Id` or a new one).
 * A request is logged when it ends, at `debug` for success, `info` for a 4xx or a 503 and `error`
 * for any other 5xx; nothing is built for a line the level filters out (no child logger per request, as
 * pino-http made: on the hot path that was ~5 % of a record read's CPU).
 */
export function requestLogging(logger: Logger) {
  return (req: LoggedRequest, res: ServerResponse, next: () => void): void => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    const line = () => ({ req: { id, method: req.method, url: (req.url ?? '').split('?')[0] }, res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) });
    res.once('finish', () => {
      // A 503 is the database away or a drain: the filter already logged its cause as a WARN.
      const level = res.statusCode >= 500 && res.statusCode !== 503 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug';
      if (logger.isLevelEnabled(level)) logger[level](line(), 'request completed');
    });
    res.once('close', () => {
      if (!res.writableFinished && logger.isLevelEnabled('warn')) logger.warn(line(), 'request aborted before the response was sent');
    });
    // The audit log reads the request id (and, once the guard knows it, the actor) from here.
    runInRequestContext({ requestId: id }, next);
  };
}

/** Nest's start-up chatter (a line per module and per route): useful when debugging, noise otherwise. */
const BOOTSTRAP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Nest's own log lines (bootstrap, filters) through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write(context && BOOTSTRAP_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  error(message: unknown, ...rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    this.write('error', message, context);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, context?: string): void {
    if (message !== null && typeof message === 'object' && !(message instanceof Error)) {
      this.logger[level]({ context, ...(message as object) });
    } else {
      this.logger[level]({ context }, String(message instanceof Error ? message.stack : message));
    }
  }
}
