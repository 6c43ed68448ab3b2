import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { useTestApp, useWorkspace } from '../support/suite';

const run = promisify(execFile);

/**
 * The script of libs/meetings/README.md, "Integration guide: avoiding duplicate meetings", run as
 * written (bash, curl, jq) against the real server over loopback: it must find a meeting the
 * workspace already has, and create one only when nothing matches on title, start and organizer.
 */
describe('meetings integration guide', () => {
  const t = useTestApp({ listen: true });
  const ws = useWorkspace(t, 'meetings-guide');
  let dir: string;
  let script: string;

  beforeAll(async () => {
    const readme = readFileSync(join(__dirname, '../../libs/meetings/README.md'), 'utf8');
    const guide = readme.slice(readme.indexOf('## Integration guide: avoiding duplicate meetings'));
    const section = guide.slice(guide.indexOf('### The whole thing, as a script'));
    const block = /```sh\n(#!\/usr\/bin\/env bash\n[\s\S]*?)```/.exec(section);
    if (!block) throw new Error('The README guide has no script block');
    dir = mkdtempSync(join(tmpdir(), 'meetings-guide-'));
    script = join(dir, 'sync-meeting.sh');
    writeFileSync(script, block[1], { mode: 0o755 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const auth = () => ({ Authorization: `Bearer ${ws.token}` });
  const event = { TITLE: 'Weekly sync', START: '2026-03-02T15:00:00Z', END: '2026-03-02T16:00:00Z', ORGANIZER: 'olga@example.com' };

  async function sync(overrides: Record<string, string> = {}): Promise<string> {
    const { stdout } = await run('bash', [script], { env: { PATH: process.env.PATH, BASE: t.baseUrl as string, TOKEN: ws.token, ...event, ...overrides }, timeout: 30_000 });
    return stdout.trim();
  }
  async function count(): Promise<number> {
    const res = await t.http().get('/v2/meetings?limit=200').set(auth()).expect(200);
    expect(res.body.pagination.next_cursor).toBeNull();
    return res.body.data.length;
  }

  it('creates the meeting once, then finds it instead of creating a duplicate', async () => {
    const created = await sync();
    expect(created).toMatch(/^[0-9a-f-]{36}$/);
    const meeting = (await t.http().get(`/v2/meetings/${created}`).set(auth()).expect(200)).body.data;
    expect(meeting).toMatchObject({ title: 'Weekly sync', start: { datetime: '2026-03-02T15:00:00.000Z' }, participants: [{ email_address: 'olga@example.com', is_organizer: true }] });
    expect(await sync()).toBe(created);
    // Title case and spaces, and the organizer's letter case, do not make it another meeting.
    expect(await sync({ TITLE: '  weekly SYNC ', ORGANIZER: 'Olga@Example.com' })).toBe(created);
    expect(await count()).toBe(1);
  });

  it('matches a meeting another integration created with another offset, and follows the cursor to find it', async () => {
    // Created elsewhere: the same instant written as 16:00+01:00, and other meetings in the window before it.
    const existing = (
      await t
        .http()
        .post('/v2/meetings')
        .set(auth())
        .send({
          data: {
            title: 'Board review',
            is_all_day: false,
            start: { datetime: '2026-04-01T11:00:00+01:00', timezone: 'Europe/London' },
            end: { datetime: '2026-04-01T12:00:00+01:00', timezone: 'Europe/London' },
            participants: [
              { email_address: 'guest@example.com', is_organizer: false, status: 'accepted' },
              { email_address: 'chair@example.com', is_organizer: true, status: 'accepted' },
            ],
          },
        })
        .expect(200)
    ).body.data.id.meeting_id;
    for (const minute of ['00', '10', '20']) {
      await t
        .http()
        .post('/v2/meetings')
        .set(auth())
        .send({ data: { title: `Other ${minute}`, is_all_day: false, start: { datetime: `2026-04-01T09:${minute}:00Z` }, end: { datetime: '2026-04-01T12:00:00Z' }, participants: [] } })
        .expect(200);
    }
    const before = await count();
    const board = { TITLE: 'Board review', START: '2026-04-01T10:00:00Z', END: '2026-04-01T11:00:00Z', ORGANIZER: 'chair@example.com' };
    expect(await sync({ ...board, PAGE_SIZE: '1' })).toBe(existing);
    expect(await count()).toBe(before);
  });

  it('creates a new meeting when the title, start or organizer differs', async () => {
    const before = await count();
    const base = await sync();
    const others = [await sync({ TITLE: 'Weekly sync (moved)' }), await sync({ START: '2026-03-02T15:30:00Z' }), await sync({ ORGANIZER: 'someone@example.com' })];
    expect(new Set([base, ...others]).size).toBe(4);
    expect(await count()).toBe(before + 3);
  });

  it('stops on an API error instead of creating blindly', async () => {
    const before = await count();
    await expect(sync({ TOKEN: 'not-a-token' })).rejects.toMatchObject({ code: 22 });
    await expect(sync({ START: 'tomorrow' })).rejects.toBeTruthy();
    expect(await count()).toBe(before);
  });
});
