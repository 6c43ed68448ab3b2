/**
 * The service in a process of its own (startBenchApp in a forked child), so that a bench can read
 * the service's own RSS (`/proc/<pid>/status`) and profile it (`--cpu-prof`) apart from the bare
 * server, which stays in the bench's process, and from autocannon, which runs in a third.
 *
 * By default the child compiles the TypeScript sources on the fly (@swc-node/register, as every
 * bench does). BENCH_SERVICE_COMPILED=1 runs it as `npm start` runs the service instead: plain
 * JavaScript emitted by tsc, with tsconfig-paths (run `npx tsc -p tsconfig.json` first: it emits
 * apps, libs and bench into dist/), with the node flags `npm start` passes (package.json's start
 * script), which is what an RSS measurement should see. BENCH_SERVICE_NODE_FLAGS adds node/V8
 * flags to the child after those (space-separated, e.g. `--heap-growing-percent=100`; V8 takes the last).
 */
import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { startBenchApp } from './support';

export interface ServiceProcess {
  readonly pid: number;
  readonly baseUrl: string;
  readonly token: string;
  readonly workspaceId: string;
  /** The service's configured public base URL (BASE_URL), as it writes it into `web_url`. */
  readonly publicUrl: string;
  /** Resident set size of the service process, in MB (VmRSS). */
  rssMb(): number;
  /** The service process's `process.memoryUsage()`, in MB. */
  memory(): Promise<Record<string, number>>;
  /** How the child runs: `swc` (sources compiled on the fly) or `compiled` (dist/, as `npm start`). */
  readonly mode: 'swc' | 'compiled';
  /** Closes the app and waits for the process to exit (a `--cpu-prof` profile is written then). */
  close(): Promise<void>;
}

interface Ready {
  readonly baseUrl: string;
  readonly token: string;
  readonly workspaceId: string;
  readonly publicUrl: string;
}

/** Starts the service on the database `url` with `env` over startBenchApp's; `cpuProfDir` turns on `--cpu-prof`. */
export function startServiceProcess(url: string, env: Readonly<Record<string, string>>, options: { cpuProfDir?: string } = {}): Promise<ServiceProcess> {
  const root = path.resolve(__dirname, '..');
  const compiled = Boolean(process.env.BENCH_SERVICE_COMPILED);
  const entry = compiled ? path.join(root, 'dist/bench/service-process.js') : __filename;
  if (compiled && !existsSync(entry)) throw new Error(`${entry} is missing: run \`npx tsc -p tsconfig.json\` first (BENCH_SERVICE_COMPILED)`);
  const flags = [...(compiled ? startFlags(root) : []), ...(process.env.BENCH_SERVICE_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])];
  const execArgv = [...flags, ...(compiled ? ['-r', 'tsconfig-paths/register'] : ['-r', '@swc-node/register']), ...(options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : [])];
  const childEnv = { ...process.env, BENCH_SERVICE_URL: url, BENCH_SERVICE_ENV: JSON.stringify(env), ...(compiled ? { TS_NODE_BASEURL: path.join(root, 'dist') } : {}) };
  const child = fork(entry, [], { cwd: root, execArgv, env: childEnv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`service process exited with ${code} before it was ready`)));
    child.once('message', (ready: Ready) => {
      resolve({
        pid: child.pid!,
        ...ready,
        mode: compiled ? 'compiled' : 'swc',
        rssMb: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024,
        memory: () =>
          new Promise((answer) => {
            child.once('message', (usage: Record<string, number>) => answer(Object.fromEntries(Object.entries(usage).map(([k, v]) => [k, Math.round(v / 1024 / 1024)]))));
            child.send('memory');
          }),
        close: async () => {
          child.send('close');
          await exited;
        },
      });
    });
  });
}

/** The node flags of `npm start` (package.json's start script, e.g. `--heap-growing-percent=50`): a compiled child runs with them, as users start the service. */
function startFlags(root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return scripts.start.split(/\s+/).filter((word) => /^--[a-z-]+(=\S+)?$/.test(word));
}

/** The child's side: start, report, close on the parent's word (or when the parent goes). */
async function serve(): Promise<void> {
  const app = await startBenchApp(process.env.BENCH_SERVICE_URL!, JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}') as Record<string, string>);
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('message', (message) => (message === 'memory' ? process.send!(process.memoryUsage()) : void close()));
  process.on('disconnect', () => void close());
  process.send!({ baseUrl: app.baseUrl, token: app.token, workspaceId: app.workspaceId, publicUrl: app.config.baseUrl } satisfies Ready);
}

if (require.main === module) {
  serve().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The `top` entries by self time of the `.cpuprofile` files in `dir` (or of the one file `dir` names), as table rows: self % (of the non-idle time), self ms, function, where. */
export function profileTop(dir: string, top = 20): string[] {
  const self = new Map<string, number>();
  const root = path.resolve(__dirname, '..');
  let total = 0;
  const files = statSync(dir).isDirectory() ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f)) : [dir];
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const frame = byId.get(id)!.callFrame;
      const where = frame.url ? `${frame.url.replace(/^file:\/\//, '').replace(`${root}/`, '').replace(/^.*node_modules\//, '')}:${frame.lineNumber + 1}` : '';
      // Idle time is the service waiting (on the bare side's rounds, on the database): not its CPU.
      // So is the inspector's native `dispatch`: an in-process profile's own start and stop.
      if (frame.functionName === '(idle)' || (frame.functionName === 'dispatch' && !frame.url)) return;
      const key = `${frame.functionName || '(anonymous)'}\t${where}`;
      const us = profile.timeDeltas[i] ?? 0;
      self.set(key, (self.get(key) ?? 0) + us);
      total += us;
    });
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => {
      const [name, where] = key.split('\t');
      return `| ${((us / total) * 100).toFixed(1)} % | ${(us / 1000).toFixed(0)} | \`${name}\` | ${where} |`;
    });
}
