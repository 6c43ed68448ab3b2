/**
 * Issue 32: 10 concurrent 50 MB uploads, then 10 concurrent downloads of them, through the API in
 * a process of its own (service-process.ts), sampling that process's RSS every 20 ms (VmRSS): the
 * target is a peak under 400 MB. Beside it, in the same run, the bare baseline: the same bytes in
 * the same 1 MiB chunks written into (and read from) the same `file_chunks` table with `pg`, 10 at
 * a time, no HTTP, no multipart. Throughput is reported as the service's over the bare side's.
 *
 *   npm run bench:files                              (embedded PostgreSQL in a temp dir; or DATABASE_URL)
 *   BENCH_FILE_MB=5 BENCH_CONCURRENCY=4 npm run bench:files      (smoke run)
 *   BENCH_SERVICE_COMPILED=1 (after npx tsc -p tsconfig.json)    (the child as `npm start` runs it)
 *
 * The bench's own process streams each body from one 1 MiB block, so the load generator holds no
 * file in memory either.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { Pool } from 'pg';
import { startServiceProcess } from './service-process';
import { appendResults, startBenchDatabase } from './support';

const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 50);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const RSS_TARGET_MB = 400;
const MiB = 1024 * 1024;
const FILE_BYTES = FILE_MB * 1000 * 1000; // "50 MB" as a user writes it; under the 50 MiB limit
const BLOCK = randomBytes(MiB);

function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = process.hrtime.bigint();
  return work().then((result) => ({ result, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
}

/** The RSS of the service process, sampled until stopped: its peak. */
function sampleRss(read: () => number): { stop(): number } {
  let peak = read();
  const timer = setInterval(() => (peak = Math.max(peak, read())), 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, read());
    },
  };
}

/** POST /v2/files/upload with the fields, then a file of `bytes` streamed from BLOCK. */
function upload(baseUrl: string, token: string, recordId: string, bytes: number): Promise<string> {
  const boundary = `bench${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="object"\r\n\r\npeople\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="record_id"\r\n\r\n${recordId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}/v2/files/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': head.length + bytes + tail.length },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data?: { id: { file_id: string }; content_size: number } };
        if (res.statusCode !== 201 || body.data?.content_size !== bytes) return reject(new Error(`upload answered ${res.statusCode}: ${JSON.stringify(body).slice(0, 300)}`));
        resolve(body.data.id.file_id);
      });
    });
    void (async () => {
      req.write(head);
      for (let sent = 0; sent < bytes; sent += MiB) {
        if (!req.write(BLOCK.subarray(0, Math.min(MiB, bytes - sent)))) await new Promise((drained) => req.once('drain', drained));
      }
      req.end(tail);
    })();
  });
}

function get(url: string, headers: http.OutgoingHttpHeaders = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => http.get(url, { headers }, resolve).on('error', reject));
}

/** GET …/download, then the signed URL (on this server rather than BASE_URL), counting the bytes. */
async function download(baseUrl: string, token: string, fileId: string): Promise<number> {
  const redirect = await get(`${baseUrl}/v2/files/${fileId}/download`, { Authorization: `Bearer ${token}` });
  redirect.resume();
  if (redirect.statusCode !== 302) throw new Error(`download answered ${redirect.statusCode}`);
  const location = new URL(redirect.headers.location!);
  const res = await get(`${baseUrl}${location.pathname}${location.search}`);
  let bytes = 0;
  for await (const chunk of res) bytes += (chunk as Buffer).length;
  if (res.statusCode !== 200) throw new Error(`content answered ${res.statusCode}`);
  return bytes;
}

/** The bare side: an entry row, then the same 1 MiB chunks INSERTed one statement each (as the service does). */
async function bareWrite(pool: Pool, workspaceId: string, bytes: number): Promise<string> {
  const id = randomUUID();
  await pool.query(`INSERT INTO files (workspace_id, id, state, file_type, storage_provider, created_by) VALUES ($1, $2, 'uploading', 'file', 'attio', '{}')`, [workspaceId, id]);
  let seq = 0;
  for (let sent = 0; sent < bytes; sent += MiB) {
    await pool.query(`INSERT INTO file_chunks (workspace_id, file_id, seq, data) VALUES ($1, $2, $3, $4)`, [workspaceId, id, seq++, BLOCK.subarray(0, Math.min(MiB, bytes - sent))]);
  }
  return id;
}

async function bareRead(pool: Pool, workspaceId: string, fileId: string, bytes: number): Promise<number> {
  let read = 0;
  for (let seq = 0; read < bytes; seq++) {
    const { rows } = await pool.query<{ data: Buffer }>(`SELECT data FROM file_chunks WHERE workspace_id = $1 AND file_id = $2 AND seq = $3`, [workspaceId, fileId, seq]);
    read += rows[0].data.length;
  }
  return read;
}

async function main(): Promise<void> {
  const database = await startBenchDatabase('files_bench');
  const service = await startServiceProcess(database.url, {});
  const pool = new Pool({ connectionString: database.url, max: CONCURRENCY });
  try {
    const created = await fetch(`${service.baseUrl}/v2/objects/people/records`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: { values: { email_addresses: ['bench@files.example'] } } }),
    });
    const recordId = ((await created.json()) as { data: { id: { record_id: string } } }).data.id.record_id;
    const totalMb = (FILE_MB * CONCURRENCY * 1e6) / MiB;
    const idleRss = service.rssMb();

    // Warm-up: one small upload and download (module loading, first statements).
    await download(service.baseUrl, service.token, await upload(service.baseUrl, service.token, recordId, MiB));

    const uploadRss = sampleRss(service.rssMb);
    const uploads = await timed(() => Promise.all(Array.from({ length: CONCURRENCY }, () => upload(service.baseUrl, service.token, recordId, FILE_BYTES))));
    const uploadPeak = uploadRss.stop();
    const downloadRss = sampleRss(service.rssMb);
    const downloads = await timed(() => Promise.all(uploads.result.map((id) => download(service.baseUrl, service.token, id))));
    const downloadPeak = downloadRss.stop();
    if (downloads.result.some((bytes) => bytes !== FILE_BYTES)) throw new Error(`a download was short: ${downloads.result.join(', ')}`);

    const bareWrites = await timed(() => Promise.all(Array.from({ length: CONCURRENCY }, () => bareWrite(pool, service.workspaceId, FILE_BYTES))));
    const bareReads = await timed(() => Promise.all(bareWrites.result.map((id) => bareRead(pool, service.workspaceId, id, FILE_BYTES))));
    await pool.query(`DELETE FROM files WHERE workspace_id = $1 AND state = 'uploading'`, [service.workspaceId]);

    const rate = (seconds: number) => totalMb / seconds;
    const lines = [
      '',
      `## Issue 32: files, ${CONCURRENCY} concurrent ${FILE_MB} MB uploads then downloads (${new Date().toISOString().slice(0, 10)}, bench/files.bench.ts)`,
      '',
      `API in its own process (${service.mode}), PostgreSQL storage (1 MiB chunks), embedded PostgreSQL; the bare side writes and reads the same chunks with \`pg\`, ${CONCURRENCY} at a time. Load before: ${(await import('node:os')).loadavg()[0].toFixed(2)}.`,
      '',
      '| phase | API | bare `pg` | ratio (API / bare) | API RSS peak (idle ' + idleRss.toFixed(0) + ' MB) |',
      '|---|---|---|---|---|',
      `| ${CONCURRENCY} × ${FILE_MB} MB uploads | ${rate(uploads.seconds).toFixed(0)} MiB/s (${uploads.seconds.toFixed(1)} s) | ${rate(bareWrites.seconds).toFixed(0)} MiB/s (${bareWrites.seconds.toFixed(1)} s) | ${(bareWrites.seconds / uploads.seconds).toFixed(2)} | ${uploadPeak.toFixed(0)} MB |`,
      `| ${CONCURRENCY} × ${FILE_MB} MB downloads | ${rate(downloads.seconds).toFixed(0)} MiB/s (${downloads.seconds.toFixed(1)} s) | ${rate(bareReads.seconds).toFixed(0)} MiB/s (${bareReads.seconds.toFixed(1)} s) | ${(bareReads.seconds / downloads.seconds).toFixed(2)} | ${downloadPeak.toFixed(0)} MB |`,
      '',
      `RSS target: under ${RSS_TARGET_MB} MB: ${Math.max(uploadPeak, downloadPeak) < RSS_TARGET_MB ? 'met' : 'NOT met'}.`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    appendResults(lines);
    if (Math.max(uploadPeak, downloadPeak) >= RSS_TARGET_MB) process.exitCode = 1;
  } finally {
    await pool.end();
    await service.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
