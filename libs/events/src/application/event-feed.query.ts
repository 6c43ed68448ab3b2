import { Injectable } from '@nestjs/common';
import { DomainError, EVENT_READ_SCOPES, type EventType, ForbiddenError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { compareOutboxPositions, wireEvent } from '@workbase/webhooks';
import { FEED_START, type FeedCursor, type FeedPosition } from '../domain/feed-position';
import { isEveryEventType, readableEventTypes } from '../domain/readable-event-types';
import { EventFeedRepository } from '../infrastructure/event-feed.repository';

/**
 * Where a page starts: after a cursor's position (null: at the oldest retained event), and, with
 * `since` (given, or pending in the cursor), at the first event from then on that occurred at or
 * after it.
 */
export interface FeedStart {
  readonly after: FeedPosition | null;
  readonly since: Date | null;
}

export interface FeedPageRequest {
  readonly start: FeedStart;
  /** The types asked for (`event_type`); null: every type. */
  readonly eventTypes: readonly EventType[] | null;
  /** The token's scopes: events of areas it may not read are skipped. */
  readonly scopes: ReadonlySet<string>;
  readonly limit: number;
}

/** A feed event in the webhook deliveries' wire shape plus its place in the feed. */
export type FeedEventBody = Record<string, unknown> & { readonly event_id: string; readonly occurred_at: string };

export interface FeedPage {
  readonly events: FeedEventBody[];
  /** Where the next page starts: after the last event of this one, or where this one started (or, still waiting for `since`, after what it walked). */
  readonly next: FeedCursor;
}

/**
 * One page of a workspace's change feed (libs/events/README.md): its events in feed order behind
 * the commit horizon, those the token may read and of the types asked for.
 */
@Injectable()
export class EventFeedQuery {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly repository: EventFeedRepository,
  ) {}

  async page(workspaceId: string, request: FeedPageRequest): Promise<FeedPage> {
    const types = readableEventTypes(request.scopes, request.eventTypes);
    const unreadable = (request.eventTypes ?? []).filter((type) => !types.includes(type));
    if (unreadable.length > 0) {
      const needed = [...new Set(unreadable.map((type) => EVENT_READ_SCOPES[type]))];
      throw new ForbiddenError(`event_type: this token may not read ${unreadable.join(', ')} events; they need the scope${needed.length > 1 ? 's' : ''} ${needed.join(', ')}.`, { field: 'event_type', missing_scopes: needed });
    }
    const filter = isEveryEventType(types) ? null : types;
    const read = () => this.read(workspaceId, request.start, filter, request.limit);
    // Filtered (by type or by the token's scopes), a short page moves the cursor past the other
    // events it walked, to the last event behind the horizon: so a reader of a rare type does not
    // walk them again at every poll. So does a reader still waiting for `since`. That position
    // must be taken from the same snapshot as the page (a later one may see events the page did
    // not, and the cursor would pass them unread), hence one REPEATABLE READ transaction.
    return filter || request.start.since ? this.transactions.run(read, 'REPEATABLE READ') : read();
  }

  private async read(workspaceId: string, start: FeedStart, filter: readonly EventType[] | null, limit: number): Promise<FeedPage> {
    let from = start.after ?? FEED_START;
    // Still waiting for `since`: nothing behind the horizon occurred at or after it yet. What comes
    // out from behind it later may have occurred before it (a transaction older than the instant
    // that commits after it), so the cursor keeps `since` and the page walks past those.
    let waitingFor: Date | null = null;
    if (start.since) {
      const first = await this.repository.positionBeforeFirstSince(workspaceId, from, start.since);
      if (first) from = first;
      else {
        from = (await this.repository.lastPositionAfter(workspaceId, from)) ?? from;
        // An instant still to come waits for what occurs from now on, as a reader asking for it means.
        waitingFor = start.after ? start.since : minDate(start.since, await this.repository.now());
      }
    }
    const rows = waitingFor ? [] : await this.repository.eventsAfter(workspaceId, from, filter, limit);
    // Checked after the read: retention deletes a prefix of the feed and records it in the same
    // transaction, so if nothing past `from` had been deleted by now, the read above missed nothing.
    const pruned = await this.repository.prunedThrough(workspaceId);
    if (pruned && start.after && compareOutboxPositions(start.after, pruned.position) < 0) {
      throw new DomainError('cursor_expired', 'cursor: the events after this cursor are older than the retention period (EVENT_RETENTION_DAYS) and some were deleted; start again without cursor.', { field: 'cursor' });
    }
    if (pruned && !start.after && start.since && start.since <= pruned.until) {
      throw new DomainError('cursor_expired', `since: events at or after ${start.since.toISOString()} are older than the retention period (EVENT_RETENTION_DAYS) and some were deleted; start later or without since.`, { field: 'since' });
    }
    const last = rows.at(-1);
    let next = last ? { lastTxId: last.tx_id, lastEventId: last.id } : from;
    // (A page still waiting for `since` is already there.)
    if (filter && !waitingFor && rows.length < limit) next = (await this.repository.lastPositionAfter(workspaceId, next)) ?? next;
    return {
      events: rows.map((row) => Object.assign(wireEvent(row), { event_id: row.id, occurred_at: row.occurred_at.toISOString() })),
      next: { after: next, since: waitingFor },
    };
  }
}

function minDate(a: Date, b: Date): Date {
  return a <= b ? a : b;
}
