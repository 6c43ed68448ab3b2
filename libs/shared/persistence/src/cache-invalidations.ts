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
 */
export class CacheInvalidations implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CacheInvalidations.name);
  private readonly caches = new Map<InvalidationTopic, Set<InvalidatedCache>>(TOPICS.map((topic) => [topic, new Set()]));
  private listener: NotificationListener | null = null;
  private live = false;

  constructor(private readonly connectionString: string) {}

  /** True while every committed change is sure to reach this process's caches. */
  get isLive(): boolean {
    return this.live;
  }

  register(topic: InvalidationTopic, cache: InvalidatedCache): void {
    this.caches.get(topic)!.add(cache);
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
      connectionString: this.connectionString,
      applicationName: 'workbase-cache-invalidations',
      channels: [INVALIDATIONS_CHANNEL],
      onNotification: (_channel, payload) => this.deliver(payload),
      onConnected: () => {
        this.resetAll();
        this.live = true;
      },
      onDisconnected: () => {
        this.live = false;
        this.resetAll();
      },
      onError: (message) => this.logger.warn(`cache invalidations: ${message}; caches bypassed until it is back`),
    });
    await this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.live = false;
    await this.listener?.stop();
    this.listener = null;
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
