import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

const ENTRY_POINTS = { api: 'apps/api/src/main.ts', worker: 'apps/worker/src/main.ts' } as const;
/** The line each process logs once it serves (the API) or works (the worker). */
const READY_TEXT = { api: 'Workbase is listening', worker: 'webhook worker running' } as const;

/** A real API or worker process: `npm start` / `npm run start:worker` without the build (swc transpiles on load). */
export interface ServiceProcess {
  readonly kind: keyof typeof ENTRY_POINTS;
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `detached`: the process leads a process group of its own, so that a test can signal the group as systemd does. */
export function spawnService(kind: keyof typeof ENTRY_POINTS, env: Record<string, string | undefined>, options: { detached?: boolean } = {}): ServiceProcess {
  const merged: NodeJS.ProcessEnv = { ...process.env, LOG_FORMAT: 'json', ...env };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  const child = spawn(process.execPath, ['-r', '@swc-node/register', ENTRY_POINTS[kind]], { cwd: ROOT, env: merged, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached ?? false });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { kind, child, output: () => output, exited: () => exit };
}

/** Spawns and waits for the process's ready line; a process that exits first fails with its output. */
export async function startService(kind: keyof typeof ENTRY_POINTS, env: Record<string, string | undefined>, timeoutMs = 120_000, options: { detached?: boolean } = {}): Promise<ServiceProcess> {
  const service = spawnService(kind, env, options);
  await untilReady(service, timeoutMs);
  return service;
}

export async function untilReady(service: ServiceProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!service.output().includes(READY_TEXT[service.kind])) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) throw new Error(`${service.kind} exited (${service.child.exitCode ?? service.child.signalCode}):\n${service.output()}`);
    if (Date.now() > deadline) throw new Error(`${service.kind} did not start within ${timeoutMs} ms:\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops a process that may still run (SIGKILL: for clean-ups after a failure). */
export async function killService(service: ServiceProcess | undefined): Promise<void> {
  if (!service || service.child.exitCode !== null || service.child.signalCode !== null) return;
  service.child.kill('SIGKILL');
  await service.exited();
}

/**
 * A port nothing listens on, for a process that binds it later (an API, PostgreSQL, PgBouncer).
 * Drawn below the kernel's ephemeral range: a port handed out by `listen(0)` lies inside that range,
 * where any outgoing connection on the machine (the other test files' database connections, many a
 * second) may take it as its local port in the seconds before the process binds it (CI saw an API
 * fail with EADDRINUSE so). Below the range only an explicit bind can take it.
 */
export async function freePort(): Promise<number> {
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralRangeStart());
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${low} and ${high}`);
}

/** Where the kernel's ephemeral ports begin: Linux says so in /proc; elsewhere, Linux's default (IANA's, 49152, is above it). */
function ephemeralRangeStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(start)) return start;
  } catch {
    // not Linux: the default below
  }
  return 32_768;
}

/** Whether `port` can be bound now, on every address as the service binds it. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}
