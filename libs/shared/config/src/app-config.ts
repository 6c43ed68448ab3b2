import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase());

/**
 * The environment the service reads, validated once at boot so that a typo fails the start with
 * a message instead of surfacing as a wrong behaviour later. Every field is documented in the README.
 */
class EnvironmentVariables {
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT?: number;

  @IsOptional() @IsString()
  DATABASE_URL?: string;

  @IsOptional() @IsString()
  DATA_DIR?: string;

  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true })
  BASE_URL?: string;

  @IsOptional() @IsString()
  TOKEN_ISSUER?: string;

  @IsOptional() @Transform(toBool) @IsBoolean()
  RATE_LIMIT_ENABLED?: boolean;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  RATE_LIMIT_READS_PER_SECOND?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  RATE_LIMIT_WRITES_PER_SECOND?: number;

  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional() @IsString()
  BODY_LIMIT?: string;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  DB_POOL_SIZE?: number;

  @IsOptional() @Transform(toBool) @IsBoolean()
  SEED_DEMO_WORKSPACE?: boolean;

  @IsOptional() @Transform(toBool) @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_TARGETS?: boolean;

  @IsOptional() @Transform(toBool) @IsBoolean()
  RUN_WORKER?: boolean;
}

export interface AppConfig {
  readonly port: number;
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly baseUrl: string;
  readonly tokenIssuer: string;
  readonly rateLimit: { readonly enabled: boolean; readonly readsPerSecond: number; readonly writesPerSecond: number };
  readonly logLevel: string;
  readonly bodyLimit: string;
  readonly dbPoolSize: number;
  readonly seedDemoWorkspace: boolean;
  readonly webhookAllowPrivateTargets: boolean;
  readonly runWorker: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = plainToInstance(EnvironmentVariables, { ...env }, { excludeExtraneousValues: false });
  const errors = validateSync(parsed, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const port = parsed.PORT ?? 3000;
  const baseUrl = (parsed.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    databaseUrl: parsed.DATABASE_URL || null,
    dataDir: parsed.DATA_DIR ?? '.data',
    baseUrl,
    tokenIssuer: parsed.TOKEN_ISSUER ?? new URL(baseUrl).host,
    rateLimit: {
      enabled: parsed.RATE_LIMIT_ENABLED ?? true,
      readsPerSecond: parsed.RATE_LIMIT_READS_PER_SECOND ?? 100,
      writesPerSecond: parsed.RATE_LIMIT_WRITES_PER_SECOND ?? 25,
    },
    logLevel: parsed.LOG_LEVEL ?? 'info',
    bodyLimit: parsed.BODY_LIMIT ?? '10mb',
    dbPoolSize: parsed.DB_POOL_SIZE ?? 10,
    seedDemoWorkspace: parsed.SEED_DEMO_WORKSPACE ?? true,
    webhookAllowPrivateTargets: parsed.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? false,
    runWorker: parsed.RUN_WORKER ?? true,
  };
}

/** Injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
