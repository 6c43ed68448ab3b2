import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { useWorkspace } from '../support/suite';
import type { TestApp } from '../support/test-app';
import {
  createMemberEvent,
  createWebhook,
  eventsOf,
  hexSignature,
  useReceiver,
  useWorkerApp,
  verifyStandard,
  waitFor,
} from './webhooks.helpers';

const storedSecret = async (t: TestApp, webhookId: string): Promise<string> =>
  (await t.app.get(DataSource).query(`SELECT secret FROM webhooks WHERE id = $1`, [webhookId]))[0].secret;

describe('webhook signing secrets at rest (SECRETS_KEY)', () => {
  const t = useWorkerApp({ SECRETS_KEY: randomBytes(32).toString('hex') });
  const ws = useWorkspace(t);
  const receiver = useReceiver();

  it('stores the secret sealed, shows it once, and still signs deliveries with it', async () => {
    const hook = await createWebhook(t, ws.token, `${receiver.url}/sealed`, [{ event_type: 'workspace-member.created', filter: null }]);
    const stored = await storedSecret(t, hook.id);
    expect(stored).toMatch(/^v1:[\w-]{8}:/);
    expect(stored).not.toContain(hook.secret);

    const memberId = await createMemberEvent(t, ws.workspaceId);
    const delivered = await waitFor(() => receiver.accepted.find((r) => r.path.endsWith('/sealed') && JSON.stringify(eventsOf(r)).includes(memberId)), 20_000, 'the sealed delivery');
    expect(delivered.headers['attio-signature']).toBe(hexSignature(hook.secret, delivered.body));
    expect(verifyStandard(hook.secret, delivered)).toBeTruthy();
  });

  it('keeps delivering for a secret stored before the key was set', async () => {
    const hook = await createWebhook(t, ws.token, `${receiver.url}/legacy`, [{ event_type: 'workspace-member.created', filter: null }]);
    // As a row written by a deployment that had no SECRETS_KEY yet.
    await t.app.get(DataSource).query(`UPDATE webhooks SET secret = $2 WHERE id = $1`, [hook.id, hook.secret]);

    const memberId = await createMemberEvent(t, ws.workspaceId);
    const delivered = await waitFor(() => receiver.accepted.find((r) => r.path.endsWith('/legacy') && JSON.stringify(eventsOf(r)).includes(memberId)), 20_000, 'the legacy delivery');
    expect(delivered.headers['attio-signature']).toBe(hexSignature(hook.secret, delivered.body));
  });

  it('never returns the secret after creation', async () => {
    const hook = await createWebhook(t, ws.token, `${receiver.url}/quiet`, [{ event_type: 'note.created', filter: null }]);
    const read = await t.http().get(`/v2/webhooks/${hook.id}`).set('Authorization', `Bearer ${ws.token}`).expect(200);
    expect(JSON.stringify(read.body)).not.toContain(hook.secret);
    expect(read.body.data.secret).toBeUndefined();
  });
});
