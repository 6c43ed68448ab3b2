import { ConfigError, DEFAULT_WEBHOOK_RETRY_SCHEDULE, loadConfig } from './app-config';

describe('loadConfig', () => {
  describe('files', () => {
    const s3 = { FILE_STORAGE: 's3', FILE_S3_BUCKET: 'workbase-files' };

    it('stores in PostgreSQL by default, with download URLs signed by a key derived from the cursor secret', () => {
      const one = loadConfig({ CURSOR_SECRET: 'c'.repeat(32) });
      expect(one.files).toMatchObject({ storage: 'postgres', s3: null, urlTtlSeconds: 300 });
      expect(one.files.urlSecret).toBe(loadConfig({ CURSOR_SECRET: 'c'.repeat(32) }).files.urlSecret);
      expect(one.files.urlSecret).not.toBe(one.cursorSecret);
      expect(loadConfig({ CURSOR_SECRET: 'c'.repeat(32), FILE_URL_SECRET: 'f'.repeat(32) }).files.urlSecret).toBe('f'.repeat(32));
    });

    it('reads the S3 settings, path-style by default with an endpoint', () => {
      expect(loadConfig({ ...s3, FILE_S3_ENDPOINT: 'http://127.0.0.1:9000', FILE_S3_ACCESS_KEY_ID: 'k', FILE_S3_SECRET_ACCESS_KEY: 's' }).files.s3).toEqual({
        bucket: 'workbase-files',
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        credentials: { accessKeyId: 'k', secretAccessKey: 's' },
        forcePathStyle: true,
      });
      expect(loadConfig({ ...s3, FILE_S3_REGION: 'eu-west-1' }).files.s3).toMatchObject({ endpoint: null, region: 'eu-west-1', credentials: null, forcePathStyle: false });
    });

    it('refuses what it cannot use, naming the variable', () => {
      for (const [env, variable] of [
        [{ FILE_STORAGE: 's3' }, 'FILE_S3_BUCKET'],
        [{ FILE_STORAGE: 'disk' }, 'FILE_STORAGE'],
        [{ ...s3, FILE_S3_BUCKET: 'Not_A_Bucket' }, 'FILE_S3_BUCKET'],
        [{ ...s3, FILE_S3_ENDPOINT: 'not a url' }, 'FILE_S3_ENDPOINT'],
        [{ ...s3, FILE_S3_ACCESS_KEY_ID: 'k' }, 'FILE_S3_ACCESS_KEY_ID'],
        [{ FILE_URL_SECRET: 'short' }, 'FILE_URL_SECRET'],
        [{ FILE_URL_TTL_SECONDS: '5' }, 'FILE_URL_TTL_SECONDS'],
      ] as const) {
        expect(() => loadConfig(env)).toThrow(ConfigError);
        expect(() => loadConfig(env)).toThrow(variable);
      }
    });
  });

  it('gives working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      dataDir: '.data',
      baseUrl: 'http://localhost:3000',
      rateLimit: { enabled: true, store: 'postgres', readsPerSecond: 100, writesPerSecond: 25 },
      logLevel: 'info',
      logFormat: null,
      shutdownDrainMs: 1000,
      httpKeepAliveTimeoutMs: 65_000,
      runWorker: true,
      seedDemoWorkspace: true,
      webhookAllowPrivateTargets: false,
      sql: { statementTimeoutMs: 30_000, maxRows: 10_000, maxResultBytes: 33_554_432, poolSize: 4, workspaceConcurrency: 2, databaseUrl: null },
      eventRetentionDays: 30,
      trashRetentionDays: 30,
    });
    expect(config.webhooks.retryScheduleSeconds).toEqual([...DEFAULT_WEBHOOK_RETRY_SCHEDULE]);
    expect(config.webhooks).toMatchObject({ workerConcurrency: 16, maxInFlightPerTarget: 4, circuitFailures: 20, circuitFailingMs: 5_000, circuitOpenMs: 5_000, circuitMaxOpenMs: 30_000 });
    expect(config.cursorSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('reads and converts every kind of setting', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/workbase',
      DATABASE_DIRECT_URL: 'postgres://u:p@db-direct:5432/workbase',
      BASE_URL: 'https://api.example.com/',
      RATE_LIMIT_ENABLED: 'false',
      RATE_LIMIT_STORE: 'memory',
      RATE_LIMIT_READS_PER_SECOND: '7',
      RUN_WORKER: 'no',
      WEBHOOK_RETRY_SCHEDULE: ' 1, 2.5 ,60',
      WEBHOOK_MAX_IN_FLIGHT_PER_TARGET: '2',
      WEBHOOK_CIRCUIT_OPEN_MS: '500',
      CURSOR_SECRET: 'x'.repeat(32),
      SECRETS_KEY: 'ab'.repeat(32),
      SQL_POOL_SIZE: '6',
      SQL_WORKSPACE_CONCURRENCY: '3',
      SQL_MAX_RESULT_BYTES: '1048576',
      EVENT_RETENTION_DAYS: '7',
      SQL_DATABASE_URL: 'postgres://u:p@replica:5432/workbase',
    });
    expect(config.eventRetentionDays).toBe(7);
    expect(config.sql).toMatchObject({ poolSize: 6, workspaceConcurrency: 3, maxResultBytes: 1_048_576, databaseUrl: 'postgres://u:p@replica:5432/workbase' });
    expect(config.databaseDirectUrl).toBe('postgres://u:p@db-direct:5432/workbase');
    expect(config.secretsKey).toEqual(Buffer.from('ab'.repeat(32), 'hex'));
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/workbase',
      baseUrl: 'https://api.example.com',
      rateLimit: { enabled: false, store: 'memory', readsPerSecond: 7, writesPerSecond: 25 },
      runWorker: false,
      cursorSecret: 'x'.repeat(32),
    });
    expect(config.webhooks.retryScheduleSeconds).toEqual([1, 2.5, 60]);
    expect(config.webhooks).toMatchObject({ maxInFlightPerTarget: 2, circuitOpenMs: 500, circuitMaxOpenMs: 30_000 });
  });

  it.each([
    ['PORT', 'eighty', /PORT/],
    ['PORT', '70000', /PORT/],
    ['BASE_URL', 'not a url', /BASE_URL/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ['LOG_FORMAT', 'xml', /LOG_FORMAT/],
    ['SHUTDOWN_DRAIN_MS', '60000', /SHUTDOWN_DRAIN_MS/],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '500', /HTTP_KEEP_ALIVE_TIMEOUT_MS/],
    ['RATE_LIMIT_STORE', 'redis', /RATE_LIMIT_STORE/],
    ['RATE_LIMIT_WRITES_PER_SECOND', '0', /RATE_LIMIT_WRITES_PER_SECOND/],
    ['WEBHOOK_RETRY_SCHEDULE', '5,soon', /WEBHOOK_RETRY_SCHEDULE: must be a comma-separated list of seconds/],
    ['WEBHOOK_MAX_IN_FLIGHT_PER_TARGET', '0', /WEBHOOK_MAX_IN_FLIGHT_PER_TARGET/],
    ['WEBHOOK_CIRCUIT_OPEN_MS', '5', /WEBHOOK_CIRCUIT_OPEN_MS/],
    ['WEBHOOK_CIRCUIT_FAILURES', '5', /WEBHOOK_CIRCUIT_FAILURES/],
    ['WEBHOOK_CIRCUIT_FAILING_MS', '-1', /WEBHOOK_CIRCUIT_FAILING_MS/],
    ['CURSOR_SECRET', 'short', /CURSOR_SECRET: must be at least 32 characters/],
    ['SECRETS_KEY', 'abc123', /SECRETS_KEY: must be 32 bytes/],
    ['SQL_POOL_SIZE', '0', /SQL_POOL_SIZE/],
    ['SQL_WORKSPACE_CONCURRENCY', 'many', /SQL_WORKSPACE_CONCURRENCY/],
    ['SQL_MAX_RESULT_BYTES', '100', /SQL_MAX_RESULT_BYTES/],
    ['SQL_MAX_RESULT_BYTES', '32MB', /SQL_MAX_RESULT_BYTES/],
    ['EVENT_RETENTION_DAYS', '0', /EVENT_RETENTION_DAYS/],
    ['EVENT_RETENTION_DAYS', '1.5', /EVENT_RETENTION_DAYS/],
    ['DATABASE_DIRECT_URL', 'postgres://u:p@db:5432/workbase', /DATABASE_DIRECT_URL: needs DATABASE_URL/],
  ])('refuses %s=%s at boot, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
