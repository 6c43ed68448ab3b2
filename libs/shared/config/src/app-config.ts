import { createHmac, randomBytes } from 'node:crypto';
import { plainToInstance, Transform } from 'class-transformer';
import { parseSecretsKey } from '@workbase/shared/kernel';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase());

/** Decorators applied as the same stack written above a property would be (the last one first), so that its messages keep their order. */
function stack(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => [...decorators].reverse().forEach((decorator) => decorator(target, key));
}

/** An optional integer variable of at least `min` (and at most `max`). */
const IntegerVar = (min: number, max?: number) => stack(IsOptional(), Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)]));
/** An optional boolean variable: 1, true, yes or on (any case) is true, anything else false. */
const BooleanVar = () => stack(IsOptional(), Transform(toBool), IsBoolean());

/**
 * The environment the service reads, validated once at boot so that a typo fails the start with
 * a message instead of surfacing as a wrong behaviour later. Every field is documented in the README.
 */
class EnvironmentVariables {
  @IntegerVar(0, 65535)
  PORT?: number;

  @IsOptional() @IsString()
  DATABASE_URL?: string;

  /** A session connection to the same database that bypasses a pooler in DATABASE_URL (LISTEN, start-up locks). */
  @IsOptional() @IsString()
  DATABASE_DIRECT_URL?: string;

  @IsOptional() @IsString()
  DATA_DIR?: string;

  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true })
  BASE_URL?: string;

  @BooleanVar()
  RATE_LIMIT_ENABLED?: boolean;

  @IsOptional() @IsIn(['postgres', 'memory'])
  RATE_LIMIT_STORE?: 'postgres' | 'memory';

  @IntegerVar(1)
  RATE_LIMIT_READS_PER_SECOND?: number;

  @IntegerVar(1)
  RATE_LIMIT_WRITES_PER_SECOND?: number;

  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  /** `json` or `pretty`; unset: pretty on a terminal, JSON lines otherwise. */
  @IsOptional() @IsIn(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty';

  /** On SIGTERM, how long readiness answers 503 while requests are still served, before the server stops accepting. */
  @IntegerVar(0, 5000)
  SHUTDOWN_DRAIN_MS?: number;

  /** How long an idle keep-alive connection stays open; longer than any balancer's or client's idle timeout in front of it. */
  @IntegerVar(1000, 3_600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;

  /** A process that joined another process's embedded cluster exits (status 75) when it is gone for longer than this. */
  @IntegerVar(1000)
  EMBEDDED_REJOIN_WITHIN_MS?: number;

  @IsOptional() @IsString()
  BODY_LIMIT?: string;

  @IntegerVar(1)
  DB_POOL_SIZE?: number;

  @BooleanVar()
  SEED_DEMO_WORKSPACE?: boolean;

  @BooleanVar()
  WEBHOOK_ALLOW_PRIVATE_TARGETS?: boolean;

  @BooleanVar()
  RUN_WORKER?: boolean;

  /** Comma-separated delays in seconds between delivery attempts, e.g. "5,300,1800". */
  @IsOptional() @Matches(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, { message: 'must be a comma-separated list of seconds' })
  WEBHOOK_RETRY_SCHEDULE?: string;

  @IntegerVar(100)
  WEBHOOK_DELIVERY_TIMEOUT_MS?: number;

  @IntegerVar(1)
  WEBHOOK_RATE_LIMIT_PER_SECOND?: number;

  @IntegerVar(1)
  WEBHOOK_RATE_LIMIT_BURST?: number;

  @IntegerVar(1)
  WEBHOOK_DEGRADED_AFTER_FAILURES?: number;

  @IntegerVar(1)
  WEBHOOK_INACTIVE_AFTER_SECONDS?: number;

  @IntegerVar(1)
  WEBHOOK_JOB_EXPIRE_SECONDS?: number;

  @IntegerVar(1)
  WEBHOOK_MAINTENANCE_INTERVAL_SECONDS?: number;

  @IntegerVar(10)
  WEBHOOK_FANOUT_INTERVAL_MS?: number;

  /** Delivery slots per worker process: each runs one attempt at a time. */
  @IntegerVar(1, 256)
  WEBHOOK_WORKER_CONCURRENCY?: number;

  /** Attempts in flight to one target at once, across every worker. */
  @IntegerVar(1, 256)
  WEBHOOK_MAX_IN_FLIGHT_PER_TARGET?: number;

  /** Attempts in a row with no answer (no 2xx or 4xx) before a target's circuit may open (at least 20). */
  @IntegerVar(20)
  WEBHOOK_CIRCUIT_FAILURES?: number;

  /** ...and for how long at least the target must have had no answer. */
  @IntegerVar(0)
  WEBHOOK_CIRCUIT_FAILING_MS?: number;

  /** How long a circuit stays open before its first probes (doubles after each failed probe, bounded by the failed attempt's next retry). */
  @IntegerVar(100)
  WEBHOOK_CIRCUIT_OPEN_MS?: number;

  @IntegerVar(100)
  WEBHOOK_CIRCUIT_MAX_OPEN_MS?: number;

  /** 32-byte key (64 hex or base64 characters) that encrypts stored webhook signing secrets. */
  @IsOptional() @IsString() @Matches(/^\s*([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)\s*$/, { message: 'must be 32 bytes: 64 hex characters or 43-44 base64 characters' })
  SECRETS_KEY?: string;

  /** Bearer token that /metrics requires. */
  @IsOptional() @IsString() @Matches(/^.{16,}$/s, { message: 'must be at least 16 characters' })
  METRICS_TOKEN?: string;

  /** /metrics without a token: open by default, except with NODE_ENV=production (then closed unless true). */
  @BooleanVar()
  METRICS_PUBLIC?: boolean;

  @IsOptional() @IsString()
  NODE_ENV?: string;

  /** HMAC key of pagination cursors; at least 32 characters. Unset: a random key per process. */
  @IsOptional() @IsString() @Matches(/^.{32,}$/s, { message: 'must be at least 32 characters' })
  CURSOR_SECRET?: string;

  /** Days the change feed (GET /v2/events) keeps events; older ones are deleted once webhook fan-out has passed them. */
  @IntegerVar(1, 3650)
  EVENT_RETENTION_DAYS?: number;

  /** Days a deleted record, entry, note, task or comment stays restorable in the trash. */
  @IntegerVar(1, 3650)
  TRASH_RETENTION_DAYS?: number;

  /** Where uploaded files' bytes live: `postgres` (chunks in the database, the default) or `s3` (an S3-compatible bucket). */
  @IsOptional() @IsIn(['postgres', 's3'])
  FILE_STORAGE?: 'postgres' | 's3';

  @IsOptional() @IsString() @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)' })
  FILE_S3_BUCKET?: string;

  /** S3-compatible endpoint (MinIO, Ceph, R2, a local test server); unset: AWS's endpoint for the region. */
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true })
  FILE_S3_ENDPOINT?: string;

  @IsOptional() @IsString()
  FILE_S3_REGION?: string;

  @IsOptional() @IsString()
  FILE_S3_ACCESS_KEY_ID?: string;

  @IsOptional() @IsString()
  FILE_S3_SECRET_ACCESS_KEY?: string;

  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
  @BooleanVar()
  FILE_S3_FORCE_PATH_STYLE?: boolean;

  /** HMAC key of signed download URLs; at least 32 characters. Unset: derived from CURSOR_SECRET. */
  @IsOptional() @IsString() @Matches(/^.{32,}$/s, { message: 'must be at least 32 characters' })
  FILE_URL_SECRET?: string;

  /** How long a signed download URL serves its file, in seconds. */
  @IntegerVar(10, 86_400)
  FILE_URL_TTL_SECONDS?: number;

  /** Statement timeout of POST /v2/sql queries, in milliseconds (libs/sql/README.md). */
  @IntegerVar(1)
  SQL_STATEMENT_TIMEOUT_MS?: number;

  /** Most rows a POST /v2/sql answer returns; more are cut off and flagged `truncated`. */
  @IntegerVar(1, 1_000_000)
  SQL_MAX_ROWS?: number;

  /**
   * Largest POST /v2/sql answer, in bytes of its rows as PostgreSQL holds them: a statement whose
   * rows add up to more is refused (400 result_too_large) before they leave the database.
   */
  @IntegerVar(1024)
  SQL_MAX_RESULT_BYTES?: number;

  /** Days an audit entry is kept; the worker removes older ones (the chain stays verifiable from its new anchor). */
  @IntegerVar(1, 36500)
  AUDIT_RETENTION_DAYS?: number;

  /** Connections of the SQL endpoint's own pool: at most this many statements run at once per process. */
  @IntegerVar(1, 100)
  SQL_POOL_SIZE?: number;

  /** Statements one workspace may run at once, across every process (advisory-lock slots). */
  @IntegerVar(1, 100)
  SQL_WORKSPACE_CONCURRENCY?: number;

  /** A hot standby for POST /v2/sql; unset, the endpoint reads the primary (DATABASE_URL). */
  @IsOptional() @IsString()
  SQL_DATABASE_URL?: string;
}

export interface AppConfig {
  readonly port: number;
  readonly databaseUrl: string | null;
  /**
   * DATABASE_DIRECT_URL: where what needs a session of its own connects (the LISTEN connections,
   * the migration and queue start locks) when DATABASE_URL goes through a transaction-mode pooler.
   */
  readonly databaseDirectUrl: string | null;
  readonly dataDir: string;
  /** The service's public URL, and its one issuer: OAuth metadata `issuer`, `iss` of /v2/self and introspection. */
  readonly baseUrl: string;
  readonly rateLimit: {
    readonly enabled: boolean;
    /** Where counters live: `postgres` (shared by every process, the default) or `memory` (per process). */
    readonly store: 'postgres' | 'memory';
    readonly readsPerSecond: number;
    readonly writesPerSecond: number;
  };
  readonly logLevel: string;
  /** null: decided by whether stdout is a terminal. */
  readonly logFormat: 'json' | 'pretty' | null;
  /** SIGTERM: readiness is 503 for this long before the HTTP server stops accepting connections. */
  readonly shutdownDrainMs: number;
  /**
   * Idle keep-alive connections are closed by the server after this long. It must exceed the idle
   * timeout of whatever reuses them (a balancer, a client pool): otherwise the server may close a
   * connection just as the other side sends a request on it, which fails as "socket hang up".
   */
  readonly httpKeepAliveTimeoutMs: number;
  /** Embedded database joined from another process: how long it may be gone before this process exits to be restarted. */
  readonly embeddedRejoinWithinMs: number;
  readonly bodyLimit: string;
  readonly dbPoolSize: number;
  readonly seedDemoWorkspace: boolean;
  readonly webhookAllowPrivateTargets: boolean;
  readonly runWorker: boolean;
  readonly webhooks: WebhookDeliveryConfig;
  /** Days the change feed keeps events (EVENT_RETENTION_DAYS; libs/events/README.md). */
  readonly eventRetentionDays: number;
  /** Days the trash keeps deleted items before the worker removes them for good (TRASH_RETENTION_DAYS; libs/trash/README.md). */
  readonly trashRetentionDays: number;
  /**
   * Key that signs pagination cursors (libs/shared/http/src/cursor.ts). When CURSOR_SECRET is
   * unset, a random key is drawn at boot: cursors then stop working across a restart or between
   * replicas (a 400 asks the client to start over), so multi-instance deployments set it.
   */
  readonly cursorSecret: string;
  /** Key of the SecretBox that seals webhook signing secrets at rest; null stores them as they are. */
  readonly secretsKey: Buffer | null;
  /**
   * Who may scrape /metrics: with a token, only its bearer; without one, everybody when `open`
   * (the default outside production, or METRICS_PUBLIC=true), nobody otherwise.
   */
  readonly metrics: { readonly token: string | null; readonly open: boolean };
  /** File storage and signed download URLs (libs/files/README.md). */
  readonly files: FilesConfig;
  /** Days audit entries are kept (AUDIT_RETENTION_DAYS, default 365; libs/audit/README.md). */
  readonly auditRetentionDays: number;
  /** Limits of the SQL endpoint (libs/sql/README.md). */
  readonly sql: {
    readonly statementTimeoutMs: number;
    readonly maxRows: number;
    /** Bound of an answer's rows, in bytes as PostgreSQL holds them (SQL_MAX_RESULT_BYTES). */
    readonly maxResultBytes: number;
    /** Size of the SQL endpoint's own connection pool (the process-wide limit of running statements). */
    readonly poolSize: number;
    /** Running statements per workspace, shared by every process through advisory locks. */
    readonly workspaceConcurrency: number;
    /** The hot standby statements run on (SQL_DATABASE_URL), or null: the application's database. */
    readonly databaseUrl: string | null;
  };
}

/** Where file contents live, and how download URLs are signed. */
export interface FilesConfig {
  readonly storage: 'postgres' | 's3';
  /** Set when `storage` is `s3` (FILE_S3_BUCKET is then required). */
  readonly s3: {
    readonly bucket: string;
    readonly endpoint: string | null;
    readonly region: string;
    /** null: the AWS SDK's default credential chain (environment, profile, instance role). */
    readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
    readonly forcePathStyle: boolean;
  } | null;
  /**
   * Key that signs download URLs. FILE_URL_SECRET, else derived from the cursor secret, so that a
   * deployment that sets CURSOR_SECRET for its replicas has URLs every replica accepts.
   */
  readonly urlSecret: string;
  readonly urlTtlSeconds: number;
}

/** Delivery tuning of outgoing webhooks (see libs/webhooks/README.md). */
export interface WebhookDeliveryConfig {
  /** Delay in seconds before attempt 2, 3, ...; attempts = length + 1. */
  readonly retryScheduleSeconds: readonly number[];
  readonly deliveryTimeoutMs: number;
  readonly rateLimitPerSecond: number;
  readonly rateLimitBurst: number;
  readonly degradedAfterFailures: number;
  readonly inactiveAfterSeconds: number;
  readonly jobExpireSeconds: number;
  readonly maintenanceIntervalSeconds: number;
  readonly fanOutIntervalMs: number;
  /** Delivery slots per process (each one attempt at a time). */
  readonly workerConcurrency: number;
  /** Attempts in flight to one target at once, across workers. */
  readonly maxInFlightPerTarget: number;
  /** A target's circuit opens once this many attempts in a row had no answer... */
  readonly circuitFailures: number;
  /** ...over at least this long (a failure rate with answers mixed in never opens it)... */
  readonly circuitFailingMs: number;
  /** ...for this long, doubling after each failed half-open round up to `circuitMaxOpenMs` (and never past the failed attempt's next retry). */
  readonly circuitOpenMs: number;
  readonly circuitMaxOpenMs: number;
}

/** Standard-Webhooks-like: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (~75.5 h). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = plainToInstance(EnvironmentVariables, { ...env }, { excludeExtraneousValues: false });
  const errors = validateSync(parsed, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  if (parsed.DATABASE_DIRECT_URL && !parsed.DATABASE_URL) {
    throw new ConfigError('Invalid configuration:\n  DATABASE_DIRECT_URL: needs DATABASE_URL (it is a direct path to the same database)');
  }
  if (parsed.FILE_STORAGE === 's3' && !parsed.FILE_S3_BUCKET) throw new ConfigError('Invalid configuration:\n  FILE_S3_BUCKET: is required when FILE_STORAGE=s3');
  if (Boolean(parsed.FILE_S3_ACCESS_KEY_ID) !== Boolean(parsed.FILE_S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration:\n  FILE_S3_ACCESS_KEY_ID: and FILE_S3_SECRET_ACCESS_KEY must be set together');
  }
  const port = parsed.PORT ?? 3000;
  const cursorSecret = parsed.CURSOR_SECRET ?? randomBytes(32).toString('base64url');
  const baseUrl = (parsed.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    databaseUrl: parsed.DATABASE_URL || null,
    databaseDirectUrl: parsed.DATABASE_DIRECT_URL || null,
    dataDir: parsed.DATA_DIR ?? '.data',
    baseUrl,
    rateLimit: {
      enabled: parsed.RATE_LIMIT_ENABLED ?? true,
      store: parsed.RATE_LIMIT_STORE ?? 'postgres',
      readsPerSecond: parsed.RATE_LIMIT_READS_PER_SECOND ?? 100,
      writesPerSecond: parsed.RATE_LIMIT_WRITES_PER_SECOND ?? 25,
    },
    logLevel: parsed.LOG_LEVEL ?? 'info',
    logFormat: parsed.LOG_FORMAT ?? null,
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS ?? 1000,
    httpKeepAliveTimeoutMs: parsed.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 65_000,
    embeddedRejoinWithinMs: parsed.EMBEDDED_REJOIN_WITHIN_MS ?? 30_000,
    bodyLimit: parsed.BODY_LIMIT ?? '10mb',
    dbPoolSize: parsed.DB_POOL_SIZE ?? 10,
    seedDemoWorkspace: parsed.SEED_DEMO_WORKSPACE ?? true,
    webhookAllowPrivateTargets: parsed.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? false,
    runWorker: parsed.RUN_WORKER ?? true,
    webhooks: {
      retryScheduleSeconds: parsed.WEBHOOK_RETRY_SCHEDULE
        ? parsed.WEBHOOK_RETRY_SCHEDULE.split(',').map((part) => Number(part.trim()))
        : [...DEFAULT_WEBHOOK_RETRY_SCHEDULE],
      deliveryTimeoutMs: parsed.WEBHOOK_DELIVERY_TIMEOUT_MS ?? 15_000,
      rateLimitPerSecond: parsed.WEBHOOK_RATE_LIMIT_PER_SECOND ?? 25,
      rateLimitBurst: parsed.WEBHOOK_RATE_LIMIT_BURST ?? parsed.WEBHOOK_RATE_LIMIT_PER_SECOND ?? 25,
      degradedAfterFailures: parsed.WEBHOOK_DEGRADED_AFTER_FAILURES ?? 5,
      inactiveAfterSeconds: parsed.WEBHOOK_INACTIVE_AFTER_SECONDS ?? 7 * 24 * 3600,
      jobExpireSeconds: parsed.WEBHOOK_JOB_EXPIRE_SECONDS ?? 120,
      maintenanceIntervalSeconds: parsed.WEBHOOK_MAINTENANCE_INTERVAL_SECONDS ?? 30,
      fanOutIntervalMs: parsed.WEBHOOK_FANOUT_INTERVAL_MS ?? 250,
      workerConcurrency: parsed.WEBHOOK_WORKER_CONCURRENCY ?? 16,
      maxInFlightPerTarget: parsed.WEBHOOK_MAX_IN_FLIGHT_PER_TARGET ?? 4,
      circuitFailures: parsed.WEBHOOK_CIRCUIT_FAILURES ?? 20,
      circuitFailingMs: parsed.WEBHOOK_CIRCUIT_FAILING_MS ?? 5_000,
      circuitOpenMs: parsed.WEBHOOK_CIRCUIT_OPEN_MS ?? 5_000,
      circuitMaxOpenMs: Math.max(parsed.WEBHOOK_CIRCUIT_MAX_OPEN_MS ?? 30_000, parsed.WEBHOOK_CIRCUIT_OPEN_MS ?? 5_000),
    },
    eventRetentionDays: parsed.EVENT_RETENTION_DAYS ?? 30,
    trashRetentionDays: parsed.TRASH_RETENTION_DAYS ?? 30,
    cursorSecret,
    files: {
      storage: parsed.FILE_STORAGE ?? 'postgres',
      s3:
        parsed.FILE_STORAGE === 's3' && parsed.FILE_S3_BUCKET
          ? {
              bucket: parsed.FILE_S3_BUCKET,
              endpoint: parsed.FILE_S3_ENDPOINT ?? null,
              region: parsed.FILE_S3_REGION ?? 'us-east-1',
              credentials:
                parsed.FILE_S3_ACCESS_KEY_ID && parsed.FILE_S3_SECRET_ACCESS_KEY
                  ? { accessKeyId: parsed.FILE_S3_ACCESS_KEY_ID, secretAccessKey: parsed.FILE_S3_SECRET_ACCESS_KEY }
                  : null,
              forcePathStyle: parsed.FILE_S3_FORCE_PATH_STYLE ?? Boolean(parsed.FILE_S3_ENDPOINT),
            }
          : null,
      urlSecret: parsed.FILE_URL_SECRET ?? createHmac('sha256', cursorSecret).update('workbase-file-url').digest('base64url'),
      urlTtlSeconds: parsed.FILE_URL_TTL_SECONDS ?? 300,
    },
    metrics: { token: parsed.METRICS_TOKEN || null, open: parsed.METRICS_PUBLIC ?? parsed.NODE_ENV !== 'production' },
    secretsKey: parsed.SECRETS_KEY ? parseSecretsKey(parsed.SECRETS_KEY) : null,
    auditRetentionDays: parsed.AUDIT_RETENTION_DAYS ?? 365,
    sql: {
      statementTimeoutMs: parsed.SQL_STATEMENT_TIMEOUT_MS ?? 30_000,
      maxRows: parsed.SQL_MAX_ROWS ?? 10_000,
      maxResultBytes: parsed.SQL_MAX_RESULT_BYTES ?? 32 * 1024 * 1024,
      poolSize: parsed.SQL_POOL_SIZE ?? 4,
      workspaceConcurrency: parsed.SQL_WORKSPACE_CONCURRENCY ?? 2,
      databaseUrl: parsed.SQL_DATABASE_URL || null,
    },
  };
}

/** Injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
