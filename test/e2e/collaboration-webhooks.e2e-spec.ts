import { useWorkspace } from '../support/suite';
import { createWebhook, deliveryRows, eventsOf, uniqueDeliveries, useReceiver, useWorkerApp, waitFor, waitForFanOut } from './webhooks.helpers';

/** Task, comment and call-recording events reach subscribers through the real worker, filters included. */
describe('webhooks for tasks, comments and call recordings (e2e)', () => {
  const t = useWorkerApp();
  const ws = useWorkspace(t, 'collab-hooks');
  const rx = useReceiver();

  const auth = () => ({ Authorization: `Bearer ${ws.token}` });
  const post = (path: string, body: object) => t.http().post(path).set(auth()).send(body);

  it('delivers task.created/updated/deleted, comment.created/deleted filtered on record_id, and call-recording.created', async () => {
    const person = (await post('/v2/objects/people/records', { data: { values: { email_addresses: ['hooked@example.com'] } } }).expect(200)).body.data.id.record_id;
    const other = (await post('/v2/objects/people/records', { data: { values: { email_addresses: ['unhooked@example.com'] } } }).expect(200)).body.data.id.record_id;
    const tasks = await createWebhook(t, ws.token, `${rx.url}/tasks`, [
      { event_type: 'task.created', filter: null },
      { event_type: 'task.updated', filter: { $and: [{ field: 'actor.type', operator: 'equals', value: 'api-token' }] } },
      { event_type: 'task.deleted', filter: null },
    ]);
    const comments = await createWebhook(t, ws.token, `${rx.url}/comments`, [
      { event_type: 'comment.created', filter: { $or: [{ field: 'record_id', operator: 'equals', value: person }] } },
      { event_type: 'comment.deleted', filter: { $or: [{ field: 'record_id', operator: 'equals', value: person }] } },
    ]);
    const calls = await createWebhook(t, ws.token, `${rx.url}/calls`, [{ event_type: 'call-recording.created', filter: null }]);

    const taskId = (await post('/v2/tasks', { data: { content: 'Follow up', linked_records: [{ target_object: 'people', target_record_id: person }] } }).expect(200)).body.data.id.task_id;
    await t.http().patch(`/v2/tasks/${taskId}`).set(auth()).send({ data: { is_completed: true } }).expect(200);
    await t.http().delete(`/v2/tasks/${taskId}`).set(auth()).expect(200);
    const comment = (await post('/v2/comments', { data: { content: 'On the hooked person', record: { object: 'people', record_id: person } } }).expect(200)).body.data;
    await post('/v2/comments', { data: { content: 'On someone else', record: { object: 'people', record_id: other } } }).expect(200);
    await t.http().delete(`/v2/comments/${comment.id.comment_id}`).set(auth()).expect(200);
    const meeting = (
      await post('/v2/meetings', {
        data: { title: 'Call', is_all_day: false, start: { datetime: '2026-03-02T15:00:00Z', timezone: null }, end: { datetime: '2026-03-02T16:00:00Z', timezone: null }, participants: [] },
      }).expect(200)
    ).body.data.id.meeting_id;
    const recording = (await post(`/v2/meetings/${meeting}/call_recordings`, { data: { transcript: [{ speech: 'Hi', start_time: 0, end_time: 1, speaker: { name: 'Ada' } }] } }).expect(200)).body.data.id
      .call_recording_id;

    await waitForFanOut(t);
    expect((await deliveryRows(t, tasks.id)).map((d) => d.event_type).sort()).toEqual(['task.created', 'task.deleted', 'task.updated']);
    expect((await deliveryRows(t, comments.id)).map((d) => d.event_type).sort()).toEqual(['comment.created', 'comment.deleted']);
    expect((await deliveryRows(t, calls.id)).map((d) => d.event_type)).toEqual(['call-recording.created']);
    await waitFor(() => uniqueDeliveries(rx.accepted).length >= 6, 10_000, 'six deliveries');
    const at = (path: string) => uniqueDeliveries(rx.accepted.filter((r) => r.path === `/hook/${path}`)).map((r) => eventsOf(r)[0]);
    // Deliveries run concurrently, so they may arrive in any order.
    const byType = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.event_type).localeCompare(String(b.event_type));
    expect(at('tasks').sort(byType).map((e) => [e.event_type, e.id])).toEqual(
      ['task.created', 'task.deleted', 'task.updated'].map((type) => [type, { workspace_id: ws.workspaceId, task_id: taskId }]),
    );
    expect(at('comments').find((e) => e.event_type === 'comment.created')).toMatchObject({ event_type: 'comment.created', id: { workspace_id: ws.workspaceId, comment_id: comment.id.comment_id }, record_id: person, thread_id: comment.thread_id });
    expect(at('calls')[0]).toMatchObject({ event_type: 'call-recording.created', id: { workspace_id: ws.workspaceId, meeting_id: meeting, call_recording_id: recording } });
  });
});
