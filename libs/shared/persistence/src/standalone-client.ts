import { Client, type ClientConfig } from 'pg';

/**
 * A connection of its own, outside any pool: a probe, a session lock, a backup. The server may end
 * it at any moment (a restart, a fast shutdown, `pg_terminate_backend`). While a query is under way
 * that query fails; between queries `pg` reports it as an 'error' event, which, with no listener,
 * ends the whole process. A starting worker died that way when another process stopped an
 * orphaned cluster just after the worker's probe had its answer. With this listener the loss
 * reaches the caller as the failure of its next query (or is of no concern once it is done).
 */
export function standaloneClient(config: ClientConfig): Client {
  const client = new Client(config);
  client.on('error', () => undefined);
  return client;
}
