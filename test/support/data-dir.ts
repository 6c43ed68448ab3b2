import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** A new DATA_DIR for processes that start their embedded PostgreSQL (readable by the user the cluster runs as). */
export function makeDataDir(prefix: string): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), `workbase-${prefix}-`));
  chmodSync(dataDir, 0o755);
  return dataDir;
}

/** The pid of the postmaster running in `dataDir`, as its postmaster.pid says; null when there is none. */
export function postmasterPid(dataDir: string): number | null {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (up to 5 s) until the process is gone. */
export async function untilDead(pid: number): Promise<void> {
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Stops a postmaster its killed owner left running in `dataDir`, if any. */
export async function stopOrphanedPostmaster(dataDir: string): Promise<void> {
  const orphan = postmasterPid(dataDir);
  if (orphan && isAlive(orphan)) process.kill(orphan, 'SIGINT');
  if (orphan) await untilDead(orphan);
}

/** A suite's clean-up: stops what its processes left running in `dataDir`, then removes it. */
export async function removeDataDir(dataDir: string): Promise<void> {
  await stopOrphanedPostmaster(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
}
