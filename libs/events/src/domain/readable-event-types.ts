import { EVENT_READ_SCOPES, EVENT_TYPES, type EventType, grants } from '@workbase/shared/kernel';

/**
 * The event types a token may read from the feed: those asked for (every type when none is), less
 * those whose area (`EVENT_READ_SCOPES`) the token has no read scope for. Events of the others
 * are skipped as if they were not there.
 */
export function readableEventTypes(granted: ReadonlySet<string>, asked: readonly EventType[] | null): EventType[] {
  return (asked ?? EVENT_TYPES).filter((type) => grants(granted, EVENT_READ_SCOPES[type]));
}

/** Whether `types` is the whole catalogue (the feed then needs no filter on the type). */
export function isEveryEventType(types: readonly EventType[]): boolean {
  return new Set(types).size === EVENT_TYPES.length;
}
