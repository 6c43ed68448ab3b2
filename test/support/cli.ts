import { execFile } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `npm run cli -- <args>` the way an operator does, in a process of its own, against `databaseUrl`. */
export function runCli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', 'apps/cli/src/main.ts', ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A successful command prints exactly one JSON object on stdout, and nothing on stderr. */
export function cliJson(result: CliResult): Record<string, unknown> {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const parsed = JSON.parse(lines[0]) as unknown;
  expect(parsed).toEqual(expect.any(Object));
  return parsed as Record<string, unknown>;
}
