import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { makeDataDir, removeDataDir } from '../support/data-dir';
import { freePort } from '../support/processes';

const ROOT = path.resolve(__dirname, '../..');

/** What a person sees at a terminal: `npm start`'s entry point under a pseudo-terminal (`script`), so stdout is a TTY. */
async function startInTerminal(dataDir: string, port: number): Promise<{ lines: string[]; stop: () => Promise<{ code: number | null; lines: string[] }> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, RUN_WORKER: 'true' };
  for (const name of ['DATABASE_URL', 'LOG_FORMAT', 'LOG_LEVEL']) delete env[name];
  const command = `exec ${JSON.stringify(process.execPath)} -r @swc-node/register apps/api/src/main.ts`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  child.stdout.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // eslint-disable-next-line no-control-regex
  const lines = () => raw.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '').split('\n');
  const deadline = Date.now() + 120_000;
  while (!raw.includes('Workbase is listening')) {
    if (child.exitCode !== null) throw new Error(`exited: ${raw}`);
    if (Date.now() > deadline) throw new Error(`did not start: ${raw}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 300)); // anything printed right after the ready line counts too
  return {
    lines: lines(),
    stop: async () => {
      child.stdin.write('\x03'); // Ctrl-C at the terminal: SIGINT to the foreground process
      return { code: await exited, lines: lines() };
    },
  };
}

describe('npm start in a terminal', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = makeDataDir('logs');
  });
  afterAll(() => removeDataDir(dataDir));

  it('prints a short readable start: progress of first-start work, the token once, the address, the docs and the database; no route table, no JSON', async () => {
    const port = await freePort();
    const first = await startInTerminal(dataDir, port);
    const printed = first.lines.filter((line) => line.trim() !== '');
    expect(printed.length).toBeLessThanOrEqual(20);
    expect(printed.some((line) => line.trimStart().startsWith('{'))).toBe(false);
    expect(printed.join('\n')).not.toMatch(/Mapped \{|dependencies initialized|RouterExplorer/);
    expect(printed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/INFO.*initialising a new PostgreSQL cluster in .*first start/),
        expect.stringMatching(/INFO.*applying database migrations/),
        expect.stringMatching(/^\s+wb_[A-Za-z0-9_-]+$/),
        expect.stringMatching(new RegExp(`INFO.*Workbase is listening on http://127\\.0\\.0\\.1:${port} — API docs: http://127\\.0\\.0\\.1:${port}/docs — database: embedded PostgreSQL in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(port \\d+\\)`)),
      ]),
    );
    expect(printed.filter((line) => /wb_[A-Za-z0-9_-]{20,}/.test(line))).toHaveLength(2); // the token, and the curl line that uses it
    const stopped = await first.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.lines.join('\n')).toMatch(/INFO.*stopped/);

    // The second start has no first-start work and no token to show.
    const second = await startInTerminal(dataDir, port);
    const again = second.lines.filter((line) => line.trim() !== '');
    expect(again.length).toBeLessThanOrEqual(6);
    expect(again.join('\n')).not.toMatch(/initialising|applying database migrations|wb_/);
    expect((await second.stop()).code).toBe(0);
  }, 240_000);
});
