import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { DataSource } from 'typeorm';
import { FileHousekeeping } from '../../libs/files/src/application/file-housekeeping';
import { pathOf } from '../support/files';
import { bearer, bearerRequests } from '../support/requests';
import { useForSuite, useWorkspace } from '../support/suite';
import { startTestApp } from '../support/test-app';

const BUCKET = 'workbase-files';

/**
 * FILE_STORAGE=s3 against s3rver, a local S3-compatible server this suite starts on loopback
 * (see libs/files/README.md for what that does and does not prove).
 */
describe('files in S3-compatible storage', () => {
  const s3 = useForSuite(
    's3rver',
    async () => {
      const directory = mkdtempSync(path.join(tmpdir(), 'workbase-s3rver-'));
      const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET }] });
      const { port } = await server.run();
      const endpoint = `http://127.0.0.1:${port}`;
      const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      return { server, directory, endpoint, port, client, running: true };
    },
    async ({ server, directory, client, running }) => {
      client.destroy();
      if (running) await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  );
  const t = useForSuite(
    'the test app on S3 storage',
    () =>
      startTestApp({
        env: {
          FILE_STORAGE: 's3',
          FILE_S3_BUCKET: BUCKET,
          FILE_S3_ENDPOINT: s3.endpoint,
          FILE_S3_ACCESS_KEY_ID: 'S3RVER',
          FILE_S3_SECRET_ACCESS_KEY: 'S3RVER',
        },
      }),
    (app) => app.close(),
  );
  const ws = useWorkspace(t, 'files-s3');
  const { get, del, createRecord } = bearerRequests(() => t, () => ws.token);

  const upload = (bytes: Buffer, recordId: string, name = 'big.bin') =>
    t.http().post('/v2/files/upload').set(bearer(ws.token)).field('object', 'people').field('record_id', recordId).attach('file', bytes, { filename: name, contentType: 'application/octet-stream' });
  const keys = async () => ((await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((object) => object.Key).sort();
  const chunkRows = async () => (await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM file_chunks`))[0].n as number;
  const download = async (fileId: string, status: number) => {
    const location = (await get(`/v2/files/${fileId}/download`).expect(302)).headers.location;
    return t
      .http()
      .get(pathOf(location))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(status);
  };

  it('streams an upload of several multipart parts into the bucket and back, with nothing in PostgreSQL', async () => {
    const recordId = await createRecord('people', { email_addresses: ['s3@files.example'] });
    const bytes = randomBytes(12 * 1024 * 1024 + 3); // three 5 MiB parts
    const file = (await upload(bytes, recordId).expect(201)).body.data;
    expect(file).toMatchObject({ storage_provider: 'attio', content_size: bytes.length });
    const key = `${ws.workspaceId}/${file.id.file_id}`;
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head.ContentLength).toBe(bytes.length);
    expect(head.ContentType).toBe('application/octet-stream');
    expect(await chunkRows()).toBe(0);
    const served = await download(file.id.file_id, 200);
    expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0);
    expect(served.headers['content-length']).toBe(String(bytes.length));

    await del(`/v2/files/${file.id.file_id}`).expect(200);
    await t.app.get(FileHousekeeping).pass(false);
    expect(await keys()).not.toContain(key);
    expect((await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM discarded_file_contents`))[0].n).toBe(0);
  });

  it('leaves no object behind when an upload is refused, and removes a deleted record\'s objects once its trash item goes', async () => {
    const before = await keys();
    await t.http().post('/v2/files/upload').set(bearer(ws.token)).attach('file', randomBytes(6 * 1024 * 1024), 'x.bin').field('object', 'people').field('record_id', randomUUID()).expect(404);
    expect(await keys()).toEqual(before);

    const recordId = await createRecord('people', { email_addresses: ['doomed-s3@files.example'] });
    const file = (await upload(randomBytes(1024), recordId).expect(201)).body.data;
    const key = `${ws.workspaceId}/${file.id.file_id}`;
    expect(await keys()).toContain(key);
    await del(`/v2/objects/people/records/${recordId}`).expect(200);
    await get(`/v2/files/${file.id.file_id}`).expect(404);
    // The record is in the trash, restorable with its files: the object stays until the item goes.
    await t.app.get(FileHousekeeping).pass(false);
    expect(await keys()).toContain(key);
    await del(`/v2/trash/records/${recordId}`).expect(200);
    await t.app.get(FileHousekeeping).pass(false);
    expect(await keys()).not.toContain(key);
  });

  it('answers 503 while the bucket is unreachable, keeps nothing of the failed upload, and works again once it is back', async () => {
    const recordId = await createRecord('people', { email_addresses: ['outage@files.example'] });
    const stored = (await upload(Buffer.from('stored before the outage'), recordId).expect(201)).body.data.id.file_id;
    const rowsBefore = (await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM files`))[0].n;
    await s3.server.close();
    s3.running = false;
    try {
      const refused = await upload(randomBytes(64 * 1024), recordId).expect(503);
      expect(refused.body).toMatchObject({ status_code: 503, message: expect.stringContaining('File storage is unavailable') });
      await download(stored, 503);
      expect((await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM files`))[0].n).toBe(rowsBefore);
    } finally {
      // The same port and directory: the bucket and its objects are as they were.
      const restarted = new S3rver({ address: '127.0.0.1', port: s3.port, silent: true, directory: s3.directory, configureBuckets: [{ name: BUCKET }] });
      await restarted.run();
      s3.server = restarted;
      s3.running = true;
    }
    expect((await download(stored, 200)).body.toString()).toBe('stored before the outage');
    await upload(Buffer.from('after'), recordId).expect(201);
  });
});
