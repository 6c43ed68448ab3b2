import { randomUUID } from 'node:crypto';
import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ClientBase } from 'pg';
import { NotificationListener } from './notification-listener';

/** Notified (at commit, by triggers of the migration `CacheInvalidationTriggers`) when cached rows change. */
export const INVALIDATIONS_CHANNEL = 'workbase_invalidations';

/**
 * What changed: `auth` for tokens, members and workspaces (who may do what), `schema` for a
 * workspace's objects, lists, activities, attributes, options and statuses.
 */
export type InvalidationTopic = 'auth' | 'schema';

const TOPICS: readonly InvalidationTopic[] = ['auth', 'schema'];

/** A cache of rows of one topic, told when they change and when it must forget everything. */
export interface InvalidatedCache {
  /** Rows of the topic changed in `workspaceId` (committed, in any process). */
  invalidate(workspaceId: string): void;
  /** Notifications may have been missed (start, reconnect): drop everything. */
  reset(): void;
}

/** How often the listening connection proves its path with a notification of its own. */
export const PROBE_INTERVAL_MS = 1_000;
/**
 * A probe not received within this long means the channel is silent: the caches are bypassed.
 * A channel that goes silent is caught within PROBE_INTERVAL_MS + PROBE_DEADLINE_MS + a tick.
 */
export const PROBE_DEADLINE_MS = 1_500;
/**
 * While the channel is silent, probes go out this seldom: behind a transaction-mode pooler none
 * will arrive, and each one is a warning line in the pooler's log.
 */
export const SILENT_PROBE_INTERVAL_MS = 5_000;
/** How often overdue probes are looked for. */
const PROBE_TICK_MS = 250;
/** Probes remembered while unanswered (a silent channel answers none; the oldest is what counts). */
const MAX_UNANSWERED = 16;

/**
 * Keeps this process's caches of rows that other processes change, across replicas.
 *
 * Triggers on the cached tables `pg_notify` in the writing transaction, so PostgreSQL delivers at
 * commit, to every session listening. Two kinds of session listen:
 * - one dedicated connection per process, the source of truth for "is caching safe": while it is
 *   down nothing may be served from a cache (notifications would be missed), and every cache is
 *   reset when it comes back;
 * - every pooled connection too: a session receives its own notifications before its COMMIT
 *   returns, so a change is dropped from this process's caches before the request that made it
 *   answers. Without that, the next request of the same client could race the dedicated
 *   connection's delivery and see what it just revoked.
 *
 * A connection that is up may still hear nothing: a pooler in transaction mode runs the LISTEN on
 * whichever server connection it picks, then hands that one to other clients, and drops the
 * notifications that arrive for it in between (PgBouncer logs "got packet 'A' from server when
 * not linked"). So the dedicated connection proves its path: every PROBE_INTERVAL_MS (1 s) this process
 * sends a notification through the pool on a channel only its own listening connection listens to
 * (`workbase_probe_<process>`, so that no other session, pooled or not, receives it), and the caches serve
 * only once one sent since the connection came up has arrived, and only while none is older than
 * PROBE_DEADLINE_MS (1.5 s) unanswered. PostgreSQL delivers a session's notifications in commit order, so
 * a probe that arrived vouches for every change committed before it. A silent channel bypasses
 * every cache, with one WARN naming the cause, until a probe arrives again.
 */
export class CacheInvalidations implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CacheInvalidations.name);
  private readonly caches = new Map<InvalidationTopic, Set<InvalidatedCache>>(TOPICS.map((topic) => [topic, new Set()]));
  private listener: NotificationListener | null = null;
  private connected = false;
  /** A probe sent since the connection came up has arrived, and none is overdue. */
  private proven = false;
  /** Said once per silence, so that a silent channel is one WARN line, not one every probe. */
  private silenceReported = false;
  /** This process's probe channel: notifications are delivered to a session in commit order across all its channels. */
  private readonly probeChannel = `workbase_probe_${randomUUID().replace(/-/g, '')}`;
  private probeSeq = 0;
  private lastProbeAt = 0;
  /** Probes sent and not yet received, oldest first: [sequence number, sent at]. */
  private unanswered: Array<[number, number]> = [];
  private probeTimer: NodeJS.Timeout | null = null;
  private sendProbe: ((payload: string) => Promise<unknown>) | null = null;
  /** Why the last probe could not be sent (the database away, the pool exhausted), to name the cause of a silence. */
  private probeSendError: string | null = null;

  /** `listenUrl`: a session the pooler does not share (DATABASE_DIRECT_URL when set). */
  constructor(private readonly listenUrl: string) {}

  /** True while every committed change is sure to reach this process's caches. */
  get isLive(): boolean {
    return this.connected && this.proven;
  }

  register(topic: InvalidationTopic, cache: InvalidatedCache): void {
    this.caches.get(topic)!.add(cache);
  }

  /**
   * How probes are sent: through the application's pool (PersistenceModule), that is by another
   * path than the listening connection's own, as every other process's changes are. A session's
   * own notifications come back to it even through a transaction-mode pooler, so a probe sent on
   * the listening connection would prove nothing.
   */
  probeThrough(send: (channel: string, payload: string) => Promise<unknown>): void {
    this.sendProbe = (payload) => send(this.probeChannel, payload);
  }

  /**
   * The pool's `onConnect` hook: the new pooled session listens too, before it serves any query.
   * Set in `PersistenceModule`, so it runs for every connection the pool ever opens.
   */
  readonly listenOnPooledConnection = async (client: ClientBase): Promise<void> => {
    client.on('notification', (message) => {
      if (message.channel === INVALIDATIONS_CHANNEL) this.deliver(message.payload ?? '');
    });
    await client.query(`LISTEN ${INVALIDATIONS_CHANNEL}`);
  };

  async onApplicationBootstrap(): Promise<void> {
    this.listener = new NotificationListener({
      connectionString: this.listenUrl,
      applicationName: 'workbase-cache-invalidations',
      channels: [INVALIDATIONS_CHANNEL, this.probeChannel],
      onNotification: (channel, payload) => (channel === this.probeChannel ? this.probeArrived(payload) : this.deliver(payload)),
      onConnected: () => {
        this.resetAll();
        this.connected = true;
        this.proven = false;
        this.unanswered = [];
        this.lastProbeAt = 0;
        this.probe();
      },
      onDisconnected: () => {
        this.connected = false;
        this.resetAll();
      },
      onError: (message) => this.logger.warn(`cache invalidations: ${message}; caches bypassed until it is back`),
    });
    this.probeTimer = setInterval(() => this.probe(), PROBE_TICK_MS);
    this.probeTimer.unref();
    await this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.connected = false;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
    await this.listener?.stop();
    this.listener = null;
  }

  /** Judges the oldest unanswered probe, then sends the next one when it is time. */
  private probe(): void {
    if (!this.connected || !this.sendProbe) return;
    const now = Date.now();
    const oldest = this.unanswered[0];
    if (oldest && now - oldest[1] > PROBE_DEADLINE_MS) {
      if (this.proven) {
        this.proven = false;
        this.resetAll();
      }
      if (!this.silenceReported) {
        this.silenceReported = true;
        const cause = this.probeSendError
          ? `its probe could not be sent (${this.probeSendError})`
          : 'the channel is silent (a pooler in transaction mode drops notifications: set DATABASE_DIRECT_URL to a session that bypasses it)';
        this.logger.warn(`cache invalidations: the listening connection has not received its own notification within ${PROBE_DEADLINE_MS} ms; ${cause}; caches bypassed until one arrives`);
      }
    }
    if (now - this.lastProbeAt < (this.silenceReported ? SILENT_PROBE_INTERVAL_MS : PROBE_INTERVAL_MS)) return;
    this.lastProbeAt = now;
    const seq = ++this.probeSeq;
    this.unanswered.push([seq, now]);
    if (this.unanswered.length > MAX_UNANSWERED) this.unanswered.splice(1, 1); // keeps the oldest: it is the one judged
    // A probe that could not be sent (the database away) is never received: it turns overdue, as it should.
    void this.sendProbe(String(seq)).then(
      () => (this.probeSendError = null),
      (error: unknown) => (this.probeSendError = error instanceof Error ? error.message : String(error)),
    );
  }

  private probeArrived(payload: string): void {
    if (!this.connected) return;
    const seq = Number(payload);
    this.unanswered = this.unanswered.filter(([sent]) => sent > seq);
    if (this.proven) return;
    this.resetAll();
    this.proven = true;
    if (this.silenceReported) this.logger.log('cache invalidations: the listening connection hears its notifications again; caches back on');
    this.silenceReported = false;
  }

  /** `<topic>:<workspace id>`, as the triggers write it. */
  private deliver(payload: string): void {
    const separator = payload.indexOf(':');
    const topic = payload.slice(0, separator) as InvalidationTopic;
    const workspaceId = payload.slice(separator + 1);
    for (const cache of this.caches.get(topic) ?? []) cache.invalidate(workspaceId);
  }

  private resetAll(): void {
    for (const caches of this.caches.values()) for (const cache of caches) cache.reset();
  }
}
