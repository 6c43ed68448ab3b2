import type { Client, ClientBase } from 'pg';

interface ErrorNotice {
  readonly severity?: string;
}

/**
 * Makes a pooled connection leave its pool the moment the server says it is ending it. A FATAL
 * error (57P01 on a terminated backend or a shutdown, 57P02, a failover's ended session) comes
 * before the socket closes; without this, the statement's caller hands the connection back in
 * between and the pool serves it to the next request, which fails too. Ending the client marks it
 * as ending, which pg-pool checks on release to remove it instead of keeping it idle.
 *
 * Used as (part of) the pool's `onConnect` hook, by the application's pool and the SQL endpoint's.
 */
export function retireOnFatalError(client: ClientBase): void {
  const connection = (client as unknown as { connection?: { on(event: 'errorMessage', listener: (notice: ErrorNotice) => void): void } }).connection;
  connection?.on('errorMessage', (notice) => {
    if (notice.severity === 'FATAL') void (client as Client).end().catch(() => undefined);
  });
}
