import { EventRetention } from '@workbase/events';
import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import { feedReader } from './events.helpers';

/**
 * Retention of the change feed: the sweep deletes events older than EVENT_RETENTION_DAYS, oldest
 * first, never past the webhook fan-out's cursor, and a cursor (or `since`) from before what it
 * deleted is a 410 `cursor_expired`. Events are aged by moving their `occurred_at` back.
 */
describe('change feed retention', () => {
  const t = useTestApp({ env: { EVENT_RETENTION_DAYS: '30' } });
  const ws = useWorkspace(t, 'retention');
  const other = useWorkspace(t, 'retention-other');
  const { get, createRecord } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  const positions = async (workspaceId: string) =>
    (await db().query(`SELECT e.tx_id::text, e.id::text FROM event_outbox e WHERE e.workspace_id = $1 ORDER BY e.tx_id, e.id`, [workspaceId])) as Array<{ tx_id: string; id: string }>;
  const moveFanOutTo = (position: { tx_id: string; id: string }) =>
    db().query(`UPDATE webhook_dispatch_cursor SET last_tx_id = $1::xid8, last_event_id = $2 WHERE consumer = 'webhooks'`, [position.tx_id, position.id]);
  const sweep = () => t.app.get(EventRetention).sweep();

  it('deletes aged events only up to the fan-out cursor, answers 410 cursor_expired to a cursor or since from before them, and starts a new reader at the oldest retained event', async () => {
    const records: string[] = [];
    for (const name of ['One, A', 'Two, B', 'Three, C', 'Four, D']) records.push(await createRecord('people', { name }));
    await createRecord('people', { name: 'Theirs, E' }, other.token);

    // A reader that has seen every record's event, and one that has seen the first one only.
    const caughtUp = feedReader(() => t, () => ws.token, { event_type: 'record.created' });
    await caughtUp.until((events) => events.length === 4);
    const firstPage = await get('/v2/events?event_type=record.created&limit=1').expect(200);
    expect(firstPage.body.data.map((e: { id: { record_id: string } }) => e.id.record_id)).toEqual([records[0]]);
    const early = { cursor: firstPage.body.pagination.next_cursor as string };
    expect(caughtUp.events.map((e) => e.id.record_id)).toEqual(records);
    const agedAt = new Date((await db().query(`SELECT max(occurred_at) AS at FROM event_outbox`))[0].at as string);

    await db().query(`UPDATE event_outbox SET occurred_at = occurred_at - interval '40 days'`);
    const young = await createRecord('people', { name: 'Young, F' });
    await caughtUp.until((events) => events.some((e) => e.id.record_id === young));

    // Fan-out has passed nothing: however old, nothing is deleted.
    await moveFanOutTo({ tx_id: '0', id: '0' });
    const stored = (await db().query(`SELECT count(*)::int AS n FROM event_outbox`))[0].n;
    expect(await sweep()).toBe(0);
    expect((await db().query(`SELECT count(*)::int AS n FROM event_outbox`))[0].n).toBe(stored);
    await get(`/v2/events?event_type=record.created&limit=1&cursor=${encodeURIComponent(early.cursor!)}`).expect(200);

    // Fan-out has passed the second record's events: those up to there go, the rest stays.
    const ours = await positions(ws.workspaceId);
    const secondCreated = (await db().query(`SELECT tx_id::text, id::text FROM event_outbox WHERE entity_id->>'record_id' = $1 AND event_type = 'record.created'`, [records[1]]))[0];
    await moveFanOutTo(secondCreated);
    expect(await sweep()).toBeGreaterThan(0);
    const left = await positions(ws.workspaceId);
    expect(left[0]).toEqual(ours[ours.findIndex((p) => p.id === secondCreated.id) + 1]);
    const retained = (await db().query(`SELECT count(*)::int AS n FROM event_outbox WHERE (tx_id, id) > ($1::xid8, $2::bigint)`, [secondCreated.tx_id, secondCreated.id]))[0].n;
    expect(retained).toBeGreaterThan(0);
    expect((await db().query(`SELECT count(*)::int AS n FROM event_outbox WHERE (tx_id, id) <= ($1::xid8, $2::bigint)`, [secondCreated.tx_id, secondCreated.id]))[0].n).toBe(0);

    // The early reader missed the second record's event: 410, in the documented error shape.
    const expired = await get(`/v2/events?event_type=record.created&limit=1&cursor=${encodeURIComponent(early.cursor!)}`).expect(410);
    expect(expired.body).toEqual({ status_code: 410, type: 'invalid_request_error', code: 'cursor_expired', message: expect.stringContaining('cursor') });
    const sinceExpired = await get(`/v2/events?since=${new Date(agedAt.getTime() - 41 * 86400_000).toISOString()}`).expect(410);
    expect(sinceExpired.body).toMatchObject({ code: 'cursor_expired', message: expect.stringContaining('since') });
    // A reader past what was deleted goes on; a new one starts at the oldest retained event.
    await get(`/v2/events?event_type=record.created&cursor=${encodeURIComponent(caughtUp.cursor!)}`).expect(200);
    const fresh = await feedReader(() => t, () => ws.token, { event_type: 'record.created' }).catchUp();
    expect(fresh.map((e) => e.id.record_id)).toEqual([records[2], records[3], young]);

    // Fan-out has passed everything: every aged event goes, the young one stays (a prefix stops at it).
    const [last] = await db().query(`SELECT e.tx_id::text, e.id::text FROM event_outbox e ORDER BY e.tx_id DESC, e.id DESC LIMIT 1`);
    await moveFanOutTo(last);
    await sweep();
    expect((await db().query(`SELECT count(*)::int AS n FROM event_outbox WHERE occurred_at < now() - interval '30 days'`))[0].n).toBe(0);
    const afterAll = await feedReader(() => t, () => ws.token, { event_type: 'record.created' }).catchUp();
    expect(afterAll.map((e) => e.id.record_id)).toEqual([young]);
    await get(`/v2/events?event_type=record.created&cursor=${encodeURIComponent(caughtUp.cursor!)}`).expect(200);
    // The other workspace lost its aged events too, and is told so in its own terms.
    const theirs = await feedReader(() => t, () => other.token).catchUp();
    expect(theirs.filter((e) => e.event_type === 'record.created')).toEqual([]);
    await get(`/v2/events?since=${new Date(Date.now() - 60_000).toISOString()}`, other.token).expect(200);
  });


  it('sweeps as soon as it is started (as the worker and the API with RUN_WORKER start it), until stopped', async () => {
    const young = await createRecord('people', { name: 'Swept, G' });
    // Everything aged (a prefix stops at the first young event, and the first test left one).
    await db().query(`UPDATE event_outbox SET occurred_at = occurred_at - interval '40 days'`);
    const [last] = await db().query(`SELECT e.tx_id::text, e.id::text FROM event_outbox e ORDER BY e.tx_id DESC, e.id DESC LIMIT 1`);
    await moveFanOutTo(last);
    const retention = t.app.get(EventRetention);
    retention.start();
    try {
      const deadline = Date.now() + 10_000;
      while ((await db().query(`SELECT count(*)::int AS n FROM event_outbox WHERE entity_id->>'record_id' = $1`, [young]))[0].n > 0) {
        if (Date.now() > deadline) throw new Error('the started sweep did not delete the aged event');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await retention.stop();
    }
  });
});
