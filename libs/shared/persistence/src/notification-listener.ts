import { Client } from 'pg';

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 10_000;

export interface NotificationListenerOptions {
  readonly connectionString: string;
  /** Names the session in pg_stat_activity. */
  readonly applicationName: string;
  readonly channels: readonly string[];
  /** Called for every notification received (bursts are the caller's to coalesce). */
  readonly onNotification: (channel: string, payload: string) => void;
  /** Called when the connection is lost, before the reconnect is scheduled. */
  readonly onDisconnected?: () => void;
  /** Called each time the connection is (re)established: notifications sent before it were missed. */
  readonly onConnected: () => void;
  readonly onError: (message: string) => void;
}

/**
 * One dedicated PostgreSQL connection (not from the pool: a LISTEN belongs to its session, and a
 * pooled connection would be handed to other queries) that LISTENs on a few channels. A dropped
 * connection is re-opened with exponential backoff (0.1 s doubling up to 10 s); notifications
 * sent while it was down are lost, which `onConnected` tells the caller after every reconnect.
 */
export class NotificationListener {
  private client: Client | null = null;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private connecting: Promise<void> | null = null;

  constructor(private readonly options: NotificationListenerOptions) {}

  get connected(): boolean {
    return this.client !== null;
  }

  /** Connects once; a failure is reported and retried in the background, never thrown. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.retryTimer = null;
    if (this.stopped) return Promise.resolve();
    this.connecting = this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new Client({ connectionString: this.options.connectionString, application_name: this.options.applicationName, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.options.onDisconnected?.();
      this.options.onError(`listening connection lost${error ? `: ${error.message}` : ''}; reconnecting in ${this.retryMs} ms`);
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => this.options.onNotification(message.channel, message.payload ?? ''));
    try {
      await client.connect();
      for (const channel of this.options.channels) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (lost) return;
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    this.options.onConnected();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retryTimer) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }
}
