import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { loadConfig } from '@workbase/shared/config';
import { createLogger, PinoNestLogger } from '@workbase/shared/http';
import { DomainError } from '@workbase/shared/kernel';
import { AuditTrail, auditInsert, type DatabaseHandle, openDatabase, runInRequestContext, runMigrations, TransactionRunner } from '@workbase/shared/persistence';
import { AppModule } from '../../shared/src/app.module';
import { backupDatabase, restoreDatabase } from './backup';
import { type CommandArgs, type CommandDefinition, COMMANDS, UsageError } from './commands';

/**
 * Admin commands against the same database as the server (embedded or DATABASE_URL), whether or
 * not the server runs. Each prints exactly one JSON object on stdout; errors go to stderr with a
 * non-zero exit (2 for bad arguments, 1 for anything else).
 */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stderr.write(usage());
    return name ? 0 : 2;
  }
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn', 2);
  if (name === 'migrate') {
    return withDatabase(config, logger, async ({ sessionUrl }) => ({ applied: await runMigrations(sessionUrl) }));
  }
  if (name === 'backup' || name === 'restore') {
    const { values, positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: name === 'restore' ? { replace: { type: 'boolean' } } : {} });
    if (positionals.length !== 1) throw new UsageError(`${name} takes exactly one file: npm run --silent cli -- ${name} <file>`);
    const [file] = positionals;
    // A backup's snapshot and a restore's load are long transactions: a session of their own (DATABASE_DIRECT_URL) when there is a pooler.
    return withDatabase(config, logger, async ({ sessionUrl }) => {
      const summary = name === 'backup' ? { ...(await backupDatabase(sessionUrl, file)) } : { ...(await restoreDatabase(sessionUrl, file, { replace: values.replace === true })) };
      // After the backup's snapshot (a backup does not hold its own entry) and after the restore's
      // load (the restored chains continue with it): each workspace's log says who did it.
      await auditEveryWorkspace(sessionUrl, `cli.${name}`, { kind: 'backup-file', id: path.resolve(file) });
      return summary;
    });
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);

  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: Object.fromEntries(Object.entries(command.options).map(([option, spec]) => [option, { type: 'string', multiple: spec.multiple ?? false }])),
  });
  for (const [option, spec] of Object.entries(command.options)) {
    if (spec.required && (values[option] === undefined || values[option] === '')) throw new UsageError(`--${option} is required for ${name}`);
  }
  return withDatabase(config, logger, async ({ url, sessionUrl }) => {
    await runMigrations(sessionUrl);
    const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, databaseUrl: url }), { logger: new PinoNestLogger(logger) });
    try {
      const result = await runCommand(command, name, values, app);
      if (command.failed?.(result)) process.exitCode = 3;
      return result;
    } finally {
      await app.close();
    }
  });
}

/**
 * Runs a command in one transaction with its audit entry (`cli.<command>`, actor: the CLI and the
 * OS user who ran it, request id: a new one per command), so a command that fails leaves neither.
 */
async function runCommand(command: CommandDefinition, name: string, args: CommandArgs, app: INestApplicationContext): Promise<Record<string, unknown>> {
  if (!command.audited) return command.run(args, app);
  const audited = command.audited;
  const actor = { cli_os_user: osUser() };
  return runInRequestContext({ requestId: `cli-${randomUUID()}`, actor }, () =>
    app.get(TransactionRunner).run(async () => {
      const result = await command.run(args, app);
      const target = await audited(args, result, app);
      if (target) {
        const entry = { action: `cli.${name}`, targetKind: target.targetKind, targetId: target.targetId, actor: { type: 'cli', id: null } };
        const trail = app.get(AuditTrail);
        await (target.workspaceId === null ? trail.recordInEveryWorkspace(entry) : trail.record({ ...entry, workspaceId: target.workspaceId }));
      }
      return result;
    }),
  );
}

/** One entry per workspace, in one transaction of its own, written as every entry is (`auditInsert`). */
async function auditEveryWorkspace(url: string, action: string, target: { kind: string; id: string }): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await runInRequestContext({ requestId: `cli-${randomUUID()}`, actor: { cli_os_user: osUser() } }, async () => {
      const workspaces = (await client.query<{ id: string }>(`SELECT id FROM workspaces ORDER BY id`)).rows;
      if (workspaces.length === 0) return;
      const params: unknown[] = [];
      const insert = auditInsert(
        workspaces.map((workspace) => ({ workspaceId: workspace.id, action, targetKind: target.kind, targetId: target.id, actor: { type: 'cli', id: null } })),
        params,
      );
      await client.query(insert, params);
    });
  } finally {
    await client.end();
  }
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? `uid:${process.getuid?.() ?? 'unknown'}`;
  }
}

async function withDatabase(
  config: ReturnType<typeof loadConfig>,
  logger: ReturnType<typeof createLogger>,
  work: (database: DatabaseHandle) => Promise<Record<string, unknown>>,
): Promise<number> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, databaseDirectUrl: config.databaseDirectUrl, dataDir: config.dataDir, log: (line) => logger.debug(line) });
  try {
    process.stdout.write(`${JSON.stringify(await work(database))}\n`);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } finally {
    await database.close();
  }
}

function usage(): string {
  const lines = ['Usage: npm run --silent cli -- <command> [--option value ...]', '', 'Commands:', '  migrate  Apply pending database migrations',
    '  backup <file>  Write every table (and the delivery queue) to <file> (gzip, JSON lines), from one consistent snapshot',
    '  restore <file> [--replace]  Rebuild the database from a backup; refuses while Workbase processes are connected, and without --replace when it holds workspaces'];
  for (const [name, command] of Object.entries(COMMANDS)) {
    lines.push(`  ${name}  ${command.summary}`);
    for (const [option, spec] of Object.entries(command.options)) {
      lines.push(`      --${option}${spec.required ? ' (required)' : ''}  ${spec.description}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usageError = error instanceof UsageError || (error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    if (usageError) process.stderr.write(`Run "npm run --silent cli -- help" for usage.\n`);
    process.exit(usageError || error instanceof DomainError ? 2 : 1);
  },
);
