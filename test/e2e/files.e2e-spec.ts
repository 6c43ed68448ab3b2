import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import contentDisposition from 'content-disposition';
import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { FileHousekeeping } from '../../libs/files/src/application/file-housekeeping';
import { DownloadSigner } from '../../libs/files/src/domain/download-signature';
import { multipartBody, pathOf } from '../support/files';
import { bearer, bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

const LIMIT = 52_428_800;

describe('files', () => {
  const t = useTestApp({ listen: true });
  const ws = useWorkspace(t, 'files');
  const other = useWorkspace(t, 'files-other');
  const { get, post, del, createRecord } = bearerRequests(() => t, () => ws.token);
  let personId: string;
  let companyId: string;
  let otherPersonId: string;

  beforeAll(async () => {
    personId = await createRecord('people', { email_addresses: ['ada@files.example'] });
    companyId = await createRecord('companies', { name: 'Files Inc' });
    otherPersonId = await createRecord('people', { email_addresses: ['bo@other.example'] }, other.token);
  });

  const db = () => t.app.get(DataSource);
  const counts = async () => {
    const [row] = await db().query(`SELECT (SELECT count(*) FROM files)::int AS files, (SELECT count(*) FROM file_chunks)::int AS chunks`);
    return row as { files: number; chunks: number };
  };

  /** Uploads with supertest's form (fields first, then the file), as a browser form would. */
  const upload = (bytes: Buffer, options: { name?: string; type?: string; object?: string; recordId?: string; parent?: string; token?: string } = {}) => {
    let req = t.http().post('/v2/files/upload').set(bearer(options.token ?? ws.token)).field('object', options.object ?? 'people').field('record_id', options.recordId ?? personId);
    if (options.parent) req = req.field('parent_folder_id', options.parent);
    return req.attach('file', bytes, { filename: options.name ?? 'notes.txt', contentType: options.type ?? 'text/plain' });
  };
  const rawUpload = (parts: Parameters<typeof multipartBody>[0], token = ws.token) => {
    const { body, contentType } = multipartBody(parts);
    return t.http().post('/v2/files/upload').set(bearer(token)).set('Content-Type', contentType).send(body);
  };
  const folder = async (name: string, parent?: string, recordId = personId) =>
    (await post('/v2/files', { object: 'people', record_id: recordId, file_type: 'folder', name, ...(parent ? { parent_folder_id: parent } : {}) }).expect(200)).body.data;
  /** Follows a download: the 302's signed URL, fetched without a token. */
  const download = async (fileId: string, token = ws.token) => {
    const redirect = await get(`/v2/files/${fileId}/download`, token).expect(302);
    expect(redirect.body).toEqual({});
    return { location: redirect.headers.location as string, res: await t.http().get(pathOf(redirect.headers.location)).buffer(true).parse(binary) };
  };

  describe('upload, get and download', () => {
    it('stores an upload as sent and serves the same bytes back through a signed URL', async () => {
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      const res = await upload(bytes, { name: 'Résumé – 履歴書 (final).pdf', type: 'application/pdf' }).expect(201);
      expect(res.body.data).toEqual({
        id: { workspace_id: ws.workspaceId, file_id: expect.any(String) },
        object_id: expect.any(String),
        object_slug: 'people',
        record_id: personId,
        storage_provider: 'attio',
        created_by_actor: { type: 'api-token', id: expect.any(String) },
        created_at: expect.any(String),
        file_type: 'file',
        name: 'Résumé – 履歴書 (final).pdf',
        content_type: 'application/pdf',
        content_size: bytes.length,
        parent_folder_id: null,
      });
      const fileId = res.body.data.id.file_id;
      expect((await get(`/v2/files/${fileId}`).expect(200)).body.data).toEqual(res.body.data);

      const { location, res: served } = await download(fileId);
      expect(location.startsWith(`${t.config.baseUrl}/v2/files/${fileId}/content?`)).toBe(true);
      expect(served.status).toBe(200);
      expect(Buffer.compare(served.body, bytes)).toBe(0);
      expect(served.headers['content-type']).toBe('application/pdf');
      expect(served.headers['content-length']).toBe(String(bytes.length));
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(contentDisposition.parse(served.headers['content-disposition'])).toEqual({ type: 'attachment', parameters: { filename: expect.any(String) } });
      expect(contentDisposition.parse(served.headers['content-disposition']).parameters.filename).toBe('Résumé – 履歴書 (final).pdf');
    });

    it('accepts the file part before the fields, and a part without a Content-Type as text/plain (RFC 7578)', async () => {
      const res = await rawUpload([
        { file: 'file', bytes: Buffer.from('hello'), disposition: 'form-data; name="file"; filename="first.txt"', contentType: null },
        { field: 'object', value: 'people' },
        { field: 'record_id', value: personId.toUpperCase() },
      ]).expect(201);
      expect(res.body.data).toMatchObject({ name: 'first.txt', content_type: 'text/plain', content_size: 5, record_id: personId });
    });

    it('stores a `file` sent as a text field (as the reference\'s typed client does) as a text/plain file named file', async () => {
      const res = await rawUpload([
        { field: 'file', value: 'plain words' },
        { field: 'object', value: 'people' },
        { field: 'record_id', value: personId },
      ]).expect(201);
      expect(res.body.data).toMatchObject({ name: 'file', content_type: 'text/plain', content_size: 11 });
      expect((await download(res.body.data.id.file_id)).res.body.toString()).toBe('plain words');
    });

    it('uploads an empty file', async () => {
      const res = await upload(Buffer.alloc(0), { name: 'empty.bin', type: 'application/octet-stream' }).expect(201);
      expect(res.body.data.content_size).toBe(0);
      const { res: served } = await download(res.body.data.id.file_id);
      expect(served.status).toBe(200);
      expect(served.body.length).toBe(0);
    });

    it('keeps a name with quotes, CR/LF and non-ASCII as sent, and serves it without any header injection', async () => {
      const evil = 'a"b\r\nSet-Cookie: stolen=1\r\nX-Evil: 1; é.html';
      const res = await rawUpload([
        { field: 'object', value: 'people' },
        { field: 'record_id', value: personId },
        { file: 'file', bytes: Buffer.from('<script>alert(1)</script>'), disposition: `form-data; name="file"; filename*=UTF-8''${encodeURIComponent(evil)}`, contentType: 'text/html' },
      ]).expect(201);
      expect(res.body.data.name).toBe(evil);
      const { res: served } = await download(res.body.data.id.file_id);
      expect(served.headers['set-cookie']).toBeUndefined();
      expect(served.headers['x-evil']).toBeUndefined();
      expect(served.headers['content-disposition']).not.toMatch(/[\r\n]/);
      expect(served.headers['content-disposition']).toMatch(/^attachment; /);
      expect(contentDisposition.parse(served.headers['content-disposition']).parameters.filename).toBe(evil);
      expect(served.headers['content-type']).toBe('text/html');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toContain('sandbox');
    });
  });

  describe('content types as sent', () => {
    const part = (contentType: string | null, bytes = Buffer.from('héllo')) => [
      { field: 'object', value: 'people' },
      { field: 'record_id', value: personId },
      { file: 'file', bytes, disposition: 'form-data; name="file"; filename="typed.txt"', contentType },
    ];

    it('keeps the declared Content-Type with its parameters, in the entry and on the download', async () => {
      for (const type of ['text/plain; charset=utf-8', 'Text/CSV;charset="ISO-8859-1" ;header=present', 'application/json; profile="urn:a \\"b\\""']) {
        const res = await rawUpload(part(type)).expect(201);
        expect(res.body.data.content_type).toBe(type);
        expect((await get(`/v2/files/${res.body.data.id.file_id}`).expect(200)).body.data.content_type).toBe(type);
        const { res: served } = await download(res.body.data.id.file_id);
        expect(served.headers['content-type']).toBe(type);
        expect(served.body.equals(Buffer.from('héllo'))).toBe(true);
      }
      // A file first and its fields after (the typed client's order), through supertest's form too.
      const fileFirst = await rawUpload([part('text/markdown; charset=UTF-8; variant=GFM')[2], ...part(null).slice(0, 2)]).expect(201);
      expect(fileFirst.body.data.content_type).toBe('text/markdown; charset=UTF-8; variant=GFM');
      expect((await upload(Buffer.from('a,b'), { name: 'x.csv', type: 'text/csv; charset=utf-8' }).expect(201)).body.data.content_type).toBe('text/csv; charset=utf-8');
    });

    it('refuses a Content-Type that is not a media type, or would carry a header, naming file; nothing is stored', async () => {
      const before = await counts();
      for (const type of [
        'text/html\r\n Set-Cookie: stolen=1', // folded: one header value that is not a media type
        'text/plain; name="a\r\nSet-Cookie: stolen=1"', // the line ends inside the quotes: unterminated
        'text/plain; charset=é',
        'text/plain; charset',
        'text',
        `text/plain; x=${'a'.repeat(300)}`,
      ]) {
        const res = await rawUpload(part(type));
        expect([type, res.status, res.body.code, res.body.message]).toEqual([type, 400, 'validation_type', expect.stringContaining('file')]);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      expect(await counts()).toEqual(before);
    });
  });

  describe('folders and connected entries', () => {
    it('nests folders, lists a folder\'s direct children or every level, says has_children, and deletes a folder with all under it', async () => {
      const recordId = await createRecord('people', { email_addresses: ['tree@files.example'] });
      const top = await folder('Contracts', undefined, recordId);
      expect(top).toMatchObject({ file_type: 'folder', name: 'Contracts', parent_folder_id: null, storage_provider: 'attio', record_id: recordId, object_slug: 'people' });
      expect(top.has_children).toBeUndefined();
      const inner = await folder('2026', top.id.file_id, recordId);
      const file = (await upload(Buffer.from('signed'), { recordId, parent: inner.id.file_id, name: 'deal.txt' }).expect(201)).body.data;
      expect(file.parent_folder_id).toBe(inner.id.file_id);

      const all = await get(`/v2/files?object=people&record_id=${recordId}`).expect(200);
      expect(all.body.data.map((e: { id: { file_id: string } }) => e.id.file_id)).toEqual([top.id.file_id, inner.id.file_id, file.id.file_id]);
      expect(all.body.pagination).toEqual({ next_cursor: null });
      const children = await get(`/v2/files?object=people&record_id=${recordId}&parent_folder_id=${top.id.file_id}`).expect(200);
      expect(children.body.data.map((e: { id: { file_id: string } }) => e.id.file_id)).toEqual([inner.id.file_id]);
      expect((await get(`/v2/files/${top.id.file_id}`).expect(200)).body.data.has_children).toBe(true);
      const empty = await folder('Empty', undefined, recordId);
      expect((await get(`/v2/files/${empty.id.file_id}`).expect(200)).body.data.has_children).toBe(false);

      const { location } = await download(file.id.file_id);
      expect(await del(`/v2/files/${top.id.file_id}`).expect(200)).toMatchObject({ body: {} });
      for (const id of [top.id.file_id, inner.id.file_id, file.id.file_id]) await get(`/v2/files/${id}`).expect(404);
      expect((await t.http().get(pathOf(location)).expect(404)).body).toMatchObject({ status_code: 404, code: 'not_found' });
      expect((await get(`/v2/files?object=people&record_id=${recordId}`).expect(200)).body.data.map((e: { name: string }) => e.name)).toEqual(['Empty']);
      const [{ chunks }] = await db().query(`SELECT count(*)::int AS chunks FROM file_chunks WHERE workspace_id = $1 AND file_id = $2`, [ws.workspaceId, file.id.file_id]);
      expect(chunks).toBe(0);
    });

    it('keeps connected entries as given, filters by provider, and has nothing to download', async () => {
      const recordId = await createRecord('companies', { name: 'Connected Co' });
      const drive = (
        await post('/v2/files', { object: 'companies', record_id: recordId, file_type: 'connected-file', storage_provider: 'microsoft-onedrive', external_provider_file_id: 'ext-1', microsoft_drive_id: 'drive-9' }).expect(200)
      ).body.data;
      expect(drive).toEqual({
        id: { workspace_id: ws.workspaceId, file_id: expect.any(String) },
        object_id: expect.any(String),
        object_slug: 'companies',
        record_id: recordId,
        storage_provider: 'microsoft-onedrive',
        created_by_actor: { type: 'api-token', id: expect.any(String) },
        created_at: expect.any(String),
        file_type: 'connected-file',
        external_provider_file_id: 'ext-1',
        microsoft_drive_id: 'drive-9',
      });
      const box = (await post('/v2/files', { object: 'companies', record_id: recordId, file_type: 'connected-folder', storage_provider: 'box', external_provider_file_id: 'box-7' }).expect(200)).body.data;
      expect(box).toMatchObject({ file_type: 'connected-folder', storage_provider: 'box', microsoft_drive_id: null });
      const onlyBox = await get(`/v2/files?object=companies&record_id=${recordId}&storage_provider=box`).expect(200);
      expect(onlyBox.body.data.map((e: { id: { file_id: string } }) => e.id.file_id)).toEqual([box.id.file_id]);
      expect((await get(`/v2/files/${box.id.file_id}`).expect(200)).body.data).toEqual(box);
      for (const id of [drive.id.file_id, box.id.file_id]) {
        expect((await get(`/v2/files/${id}/download`).expect(400)).body).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('file_id') });
      }
      const folderEntry = await folder('Nothing to fetch');
      await get(`/v2/files/${folderEntry.id.file_id}/download`).expect(400);
    });
  });

  describe('list pagination', () => {
    it('pages with a cursor bound to its query, in creation order, without repeats or gaps', async () => {
      const recordId = await createRecord('people', { email_addresses: ['pages@files.example'] });
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await folder(`F${i}`, undefined, recordId)).id.file_id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { body: { data: Array<{ id: { file_id: string } }>; pagination: { next_cursor: string | null } } } = await get(
          `/v2/files?object=people&record_id=${recordId}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ).expect(200);
        seen.push(...res.body.data.map((e) => e.id.file_id));
        cursor = res.body.pagination.next_cursor;
        pages++;
      } while (cursor);
      expect(seen).toEqual(made);
      expect(pages).toBe(3);

      const first = await get(`/v2/files?object=people&record_id=${recordId}&limit=2`).expect(200);
      const next = encodeURIComponent(first.body.pagination.next_cursor);
      const changed = await get(`/v2/files?object=people&record_id=${recordId}&limit=3&cursor=${next}`).expect(400);
      expect(changed.body.message).toContain('cursor');
      await get(`/v2/files?object=people&record_id=${personId}&limit=2&cursor=${next}`).expect(400);
      await get(`/v2/files?object=people&record_id=${recordId}&limit=2&cursor=${next}x`).expect(400);
    });
  });

  describe('bad inputs', () => {
    it('refuses bad list queries, naming the parameter', async () => {
      const base = `object=people&record_id=${personId}`;
      await expectEachRefused(
        [
          [`record_id=${personId}`, 'object'],
          ['object=people', 'record_id'],
          ['object=people&record_id=nope', 'record_id'],
          [`${base}&limit=0`, 'limit'],
          [`${base}&limit=201`, 'limit'],
          [`${base}&limit=ten`, 'limit'],
          [`${base}&storage_provider=ftp`, 'storage_provider'],
          [`${base}&parent_folder_id=nope`, 'parent_folder_id'],
          [`${base}&cursor=`, 'cursor'],
          [`${base}&extra=1`, 'extra'],
        ],
        (query) => get(`/v2/files?${query}`),
      );
    });

    it('refuses bad create bodies, naming the field', async () => {
      const folderBody = { object: 'people', record_id: personId, file_type: 'folder', name: 'X' };
      const connected = { object: 'people', record_id: personId, file_type: 'connected-file', storage_provider: 'dropbox', external_provider_file_id: 'e' };
      await expectEachRefused(
        [
          [{ ...folderBody, object: undefined }, 'object'],
          [{ ...folderBody, object: '' }, 'object'],
          [{ ...folderBody, record_id: 'nope' }, 'record_id'],
          [{ ...folderBody, file_type: 'file' }, 'file_type'],
          [{ ...folderBody, file_type: undefined }, 'file_type'],
          [{ ...folderBody, name: undefined }, 'name'],
          [{ ...folderBody, name: '' }, 'name'],
          [{ ...folderBody, name: 'a\u0000b' }, 'name'],
          [{ ...folderBody, name: 'n'.repeat(1025) }, 'name'],
          [{ ...folderBody, parent_folder_id: 'nope' }, 'parent_folder_id'],
          [{ ...folderBody, storage_provider: 'box' }, 'storage_provider'],
          [{ ...connected, storage_provider: 'attio' }, 'storage_provider'],
          [{ ...connected, storage_provider: undefined }, 'storage_provider'],
          [{ ...connected, external_provider_file_id: undefined }, 'external_provider_file_id'],
          [{ ...connected, external_provider_file_id: 7 }, 'external_provider_file_id'],
          [{ ...connected, microsoft_drive_id: 'd' }, 'microsoft_drive_id'],
          [{ ...connected, name: 'n' }, 'name'],
          [{ data: folderBody }, 'data'],
        ],
        (body) => post('/v2/files', body),
      );
      const before = await counts();
      const file = (await upload(Buffer.from('x')).expect(201)).body.data;
      const asParent = await post('/v2/files', { ...folderBody, parent_folder_id: file.id.file_id }).expect(400);
      expect(asParent.body.message).toContain('parent_folder_id');
      const elsewhere = await folder('Elsewhere', undefined, await createRecord('people', { email_addresses: ['else@files.example'] }));
      await post('/v2/files', { ...folderBody, parent_folder_id: elsewhere.id.file_id }).expect(400);
      await post('/v2/files', { ...folderBody, parent_folder_id: randomUUID() }).expect(404);
      await post('/v2/files', { ...folderBody, object: 'no-such-object' }).expect(404);
      await post('/v2/files', { ...folderBody, record_id: randomUUID() }).expect(404);
      await post('/v2/files', { ...folderBody, object: 'companies' }).expect(404);
      expect(await counts()).toEqual({ files: before.files + 2, chunks: before.chunks + 1 });
    });

    it('refuses bad uploads, naming the field, and keeps nothing of them', async () => {
      const before = await counts();
      const file = { file: 'file', bytes: randomBytes(1500) } as const;
      const object = { field: 'object', value: 'people' } as const;
      const record = { field: 'record_id', value: personId } as const;
      await expectEachRefused(
        [
          [[object, record], 'file'],
          [[file, record], 'object'],
          [[file, object], 'record_id'],
          [[file, object, { field: 'record_id', value: 'nope' }], 'record_id'],
          [[object, record, file, { field: 'parent_folder_id', value: 'nope' }], 'parent_folder_id'],
          [[object, record, file, { field: 'colour', value: 'red' }], 'colour'],
          [[object, record, file, file], 'file'],
          [[object, object, record, file], 'object'],
          [[object, record, { file: 'attachment', bytes: Buffer.from('x'), disposition: 'form-data; name="attachment"; filename="a.txt"' }], 'attachment'],
          [[{ file: 'object', bytes: Buffer.from('people'), disposition: 'form-data; name="object"; filename="o.txt"' }, record, file], 'object'],
          [[object, record, { file: 'file', bytes: Buffer.from('x'), disposition: 'form-data; name="file"; filename=""' }], 'file'],
          [[object, record, { file: 'file', bytes: Buffer.from('x'), disposition: `form-data; name="file"; filename*=UTF-8''a%00b` }], 'file'],
        ],
        (parts) => rawUpload(parts),
      );
      const notMultipart = await post('/v2/files/upload', { object: 'people', record_id: personId, file: 'x' }).expect(400);
      expect(notMultipart.body.message).toContain('Content-Type');
      const noBoundary = await t.http().post('/v2/files/upload').set(bearer(ws.token)).set('Content-Type', 'multipart/form-data; charset=utf-8').send('x').expect(400);
      expect(noBoundary.body.message).toContain('Content-Type');
      await rawUpload([object, { field: 'record_id', value: randomUUID() }, file]).expect(404);
      await rawUpload([file, object, { field: 'record_id', value: randomUUID() }]).expect(404);
      await rawUpload([{ field: 'object', value: 'no-such-object' }, record, file]).expect(404);
      await rawUpload([object, record, { field: 'parent_folder_id', value: randomUUID() }, file]).expect(404);
      await rawUpload([file, object, record, { field: 'parent_folder_id', value: randomUUID() }]).expect(404);
      expect(await counts()).toEqual(before);
    });

    it('answers 404 for unknown and malformed file ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        await get(`/v2/files/${id}`).expect(404);
        await get(`/v2/files/${id}/download`).expect(404);
        expect((await del(`/v2/files/${id}`).expect(404)).body).toMatchObject({ status_code: 404, type: 'invalid_request_error', code: 'not_found' });
      }
    });
  });

  describe('upload limit (50 MiB)', () => {
    /** A raw request to the listening server: the test decides what is sent and when. */
    const rawRequest = (headers: http.OutgoingHttpHeaders) => {
      const url = new URL('/v2/files/upload', t.baseUrl!);
      const req = http.request(url, { method: 'POST', headers: { ...bearer(ws.token), ...headers } });
      req.on('error', () => undefined); // the server may close the connection while the rest of the body is being sent
      const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
          res.on('error', reject);
        });
      });
      return { req, answer };
    };

    it('refuses a body declared larger than the limit from its Content-Length, before reading it', async () => {
      const before = await counts();
      const { contentType } = multipartBody([]);
      const { req, answer } = rawRequest({ 'Content-Type': contentType, 'Content-Length': String(LIMIT + 1024 * 1024) });
      req.write(Buffer.alloc(1024)); // nothing near the declared length is ever sent
      const res = await answer;
      req.destroy();
      expect(res).toEqual({ status: 413, body: { status_code: 413, type: 'invalid_request_error', code: 'validation_type', message: expect.stringContaining('52428800') } });
      expect(await counts()).toEqual(before);
    });

    it('accepts exactly 52,428,800 bytes, and refuses a chunked body the moment it passes the limit, leaving nothing behind', async () => {
      const exact = Buffer.alloc(LIMIT, 7);
      const ok = await upload(exact, { name: 'exact.bin', type: 'application/octet-stream' }).expect(201);
      expect(ok.body.data.content_size).toBe(LIMIT);
      await del(`/v2/files/${ok.body.data.id.file_id}`).expect(200);

      const before = await counts();
      // The fields and the file part's headers, then its bytes in 1 MiB writes with no Content-Length (chunked), up to 60 MiB.
      const boundary = 'workbase-chunked-upload';
      const part = (disposition: string, rest: string) => `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${rest}`;
      const head = part('name="object"', '\r\npeople\r\n') + part('name="record_id"', `\r\n${personId}\r\n`) + part('name="file"; filename="big.bin"', 'Content-Type: application/octet-stream\r\n\r\n');
      const { req, answer } = rawRequest({ 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' });
      req.write(head);
      let sent = 0;
      const block = Buffer.alloc(1024 * 1024, 1);
      const willSend = 400 * 1024 * 1024;
      let sentWhenAnswered: number | null = null;
      void answer.then(() => (sentWhenAnswered = sent));
      const closed = new Promise((resolve) => req.once('close', resolve));
      while (sent < willSend && sentWhenAnswered === null && !req.destroyed) {
        if (!req.write(block)) await Promise.race([new Promise((resolve) => req.once('drain', resolve)), closed, answer]);
        sent += block.length;
      }
      const res = await answer;
      req.destroy();
      expect(res).toEqual({ status: 413, body: expect.objectContaining({ status_code: 413, code: 'validation_type', message: expect.stringContaining('file') }) });
      // Answered once the limit was passed, with at most the sockets' buffers sent beyond it, long before the client was done.
      expect(sentWhenAnswered).not.toBeNull();
      expect(sentWhenAnswered!).toBeLessThan(LIMIT + 48 * 1024 * 1024);
      // The uploading entry and its chunks are removed before the answer.
      expect(await counts()).toEqual(before);
    });
  });

  describe('uploads cut off', () => {
    it('takes back an upload whose client goes away halfway', async () => {
      const before = await counts();
      const boundary = 'workbase-cut-off';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const req = http.request(new URL('/v2/files/upload', t.baseUrl!), {
        method: 'POST',
        headers: { ...bearer(ws.token), 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + 8 * 1024 * 1024) },
      });
      req.on('error', () => undefined);
      req.write(head);
      req.write(Buffer.alloc(3 * 1024 * 1024, 2));
      // Wait until the server has stored some of it, then go away.
      for (let i = 0; i < 200 && (await counts()).chunks === before.chunks; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect((await counts()).chunks).toBeGreaterThan(before.chunks);
      req.destroy();
      let now = await counts();
      for (let i = 0; i < 400 && (now.files !== before.files || now.chunks !== before.chunks); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        now = await counts();
      }
      expect(now).toEqual(before);
    });

    it('sweeps an upload a killed process left behind, after an hour', async () => {
      const before = await counts();
      const stale = randomUUID();
      const fresh = randomUUID();
      for (const [id, age] of [[stale, '2 hours'], [fresh, '1 minute']]) {
        await db().query(`INSERT INTO files (workspace_id, id, state, file_type, storage_provider, created_by, created_at) VALUES ($1, $2, 'uploading', 'file', 'attio', '{}', now() - $3::interval)`, [ws.workspaceId, id, age]);
        await db().query(`INSERT INTO file_chunks (workspace_id, file_id, seq, data) VALUES ($1, $2, 0, $3)`, [ws.workspaceId, id, Buffer.from('partial')]);
      }
      await t.app.get(FileHousekeeping).pass(true);
      const left = await db().query(`SELECT id FROM files WHERE workspace_id = $1 AND id = ANY($2::uuid[])`, [ws.workspaceId, [stale, fresh]]);
      expect(left.map((row: { id: string }) => row.id)).toEqual([fresh]);
      expect(await counts()).toEqual({ files: before.files + 1, chunks: before.chunks + 1 });
      await db().query(`DELETE FROM files WHERE workspace_id = $1 AND id = $2`, [ws.workspaceId, fresh]);
    });
  });

  describe('signed download URLs', () => {
    let fileId: string;
    let location: string;
    beforeAll(async () => {
      fileId = (await upload(Buffer.from('secret bytes'), { name: 's.txt' }).expect(201)).body.data.id.file_id;
      location = (await get(`/v2/files/${fileId}/download`).expect(302)).headers.location;
    });

    it('serves without a token, and refuses an altered URL with a 403 in the error shape, serving nothing', async () => {
      expect((await t.http().get(pathOf(location)).buffer(true).parse(binary).expect(200)).body.toString()).toBe('secret bytes');
      const url = new URL(location);
      const signature = url.searchParams.get('signature')!;
      const altered = (change: (u: URL) => void) => {
        const copy = new URL(location);
        change(copy);
        return pathOf(copy.toString());
      };
      const otherFile = (await upload(Buffer.from('other bytes'), { name: 'o.txt' }).expect(201)).body.data.id.file_id;
      for (const path of [
        altered((u) => u.searchParams.set('signature', `${signature.slice(0, -2)}AA`)),
        altered((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
        altered((u) => u.searchParams.set('workspace_id', other.workspaceId)),
        altered((u) => (u.pathname = `/v2/files/${otherFile}/content`)),
        altered((u) => u.searchParams.set('expires', 'soon')),
      ]) {
        const res = await t.http().get(path).expect(403);
        expect(res.body).toMatchObject({ status_code: 403, type: 'auth_error', code: 'unauthorized', message: expect.stringContaining('signature') });
        expect(res.headers['content-disposition']).toBeUndefined();
      }
      await t.http().get(altered((u) => u.searchParams.delete('signature'))).expect(400);
    });

    it('refuses an expired URL with a 403', async () => {
      const signer = new DownloadSigner(t.config.files.urlSecret);
      const expiresAt = Math.floor(Date.now() / 1000) - 1;
      const query = new URLSearchParams({ workspace_id: ws.workspaceId, expires: String(expiresAt), signature: signer.sign({ workspaceId: ws.workspaceId, fileId, expiresAt }) });
      const res = await t.http().get(`/v2/files/${fileId}/content?${query}`).expect(403);
      expect(res.body.message).toContain('expired');
      // The same signer, a live expiry: served (so the 403 above is the expiry's).
      const live = Math.floor(Date.now() / 1000) + 60;
      const ok = new URLSearchParams({ workspace_id: ws.workspaceId, expires: String(live), signature: signer.sign({ workspaceId: ws.workspaceId, fileId, expiresAt: live }) });
      await t.http().get(`/v2/files/${fileId}/content?${ok}`).expect(200);
    });
  });

  describe('record merge', () => {
    it("moves both originals' files and folders, with their ids and bytes, to the merged record", async () => {
      const primary = await createRecord('people', { email_addresses: ['merge-a@files.example'] });
      const secondary = await createRecord('people', { email_addresses: ['merge-b@files.example'] });
      const bytes = randomBytes(4096);
      const uploaded = (await upload(bytes, { name: 'contract.pdf', type: 'application/pdf', recordId: primary }).expect(201)).body.data;
      const kept = await folder('Kept', undefined, secondary);
      const merged = await post('/v2/objects/people/records/merge', { data: { primary_record_id: primary, secondary_record_id: secondary } }).expect(200);
      const newRecordId = merged.body.data.new_record_id as string;

      const listed = (await get(`/v2/files?object=people&record_id=${newRecordId}`).expect(200)).body.data as Array<{ id: { file_id: string }; record_id: string }>;
      expect(listed.map((entry) => entry.id.file_id).sort()).toEqual([uploaded.id.file_id, kept.id.file_id].sort());
      expect(listed.every((entry) => entry.record_id === newRecordId)).toBe(true);
      expect(Buffer.compare((await download(uploaded.id.file_id)).res.body, bytes)).toBe(0);
      // The originals are gone, and nothing is listed under them any more.
      await get(`/v2/files?object=people&record_id=${primary}`).expect(404);
    });
  });

  describe('tenancy and scopes', () => {
    it('answers 404 for another workspace\'s files and records', async () => {
      const theirs = (await upload(Buffer.from('theirs'), { recordId: otherPersonId, token: other.token }).expect(201)).body.data.id.file_id;
      await get(`/v2/files/${theirs}`).expect(404);
      await get(`/v2/files/${theirs}/download`).expect(404);
      await del(`/v2/files/${theirs}`).expect(404);
      await get(`/v2/files/${theirs}`, other.token).expect(200);
      await get(`/v2/files?object=people&record_id=${otherPersonId}`).expect(404);
      await post('/v2/files', { object: 'people', record_id: otherPersonId, file_type: 'folder', name: 'x' }).expect(404);
      await upload(Buffer.from('x'), { recordId: otherPersonId }).expect(404);
      const theirFolder = (await post('/v2/files', { object: 'people', record_id: otherPersonId, file_type: 'folder', name: 'Theirs' }, other.token).expect(200)).body.data.id.file_id;
      await post('/v2/files', { object: 'people', record_id: personId, file_type: 'folder', name: 'x', parent_folder_id: theirFolder }).expect(404);
      await upload(Buffer.from('x'), { parent: theirFolder }).expect(404);
      await get(`/v2/files?object=people&record_id=${personId}&parent_folder_id=${theirFolder}`).expect(404);
    });

    it('needs file:read (+ object_configuration:read, record_permission:read) to read and file:read-write to write', async () => {
      const reader = await t.tokenFor(ws.workspaceId, [SCOPES.fileRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead]);
      const noFiles = await t.tokenFor(ws.workspaceId, [SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead]);
      const noRecords = await t.tokenFor(ws.workspaceId, [SCOPES.fileReadWrite, SCOPES.objectConfigurationRead]);
      const mine = (await upload(Buffer.from('m')).expect(201)).body.data.id.file_id;
      await get(`/v2/files?object=people&record_id=${personId}`, reader).expect(200);
      await get(`/v2/files/${mine}`, reader).expect(200);
      await get(`/v2/files/${mine}/download`, reader).expect(302);
      for (const token of [reader, noRecords]) {
        const refused = await post('/v2/files', { object: 'people', record_id: personId, file_type: 'folder', name: 'x' }, token).expect(403);
        expect(refused.body).toMatchObject({ type: 'auth_error', code: 'unauthorized' });
        await upload(Buffer.from('x'), { token }).expect(403);
        await del(`/v2/files/${mine}`, token).expect(403);
      }
      const missing = await get(`/v2/files/${mine}`, noFiles).expect(403);
      expect(missing.body.message).toContain('file:read');
      await get(`/v2/files/${mine}`, noRecords).expect(403);
      await get(`/v2/files/${mine}`).expect(200);
    });
  });

  describe('a record\'s deletion', () => {
    it('takes its files and folders, their bytes and their download URLs with it, and leaves other records\' files', async () => {
      const doomed = await createRecord('companies', { name: 'Doomed Ltd' });
      const dir = (await post('/v2/files', { object: 'companies', record_id: doomed, file_type: 'folder', name: 'Docs' }).expect(200)).body.data.id.file_id;
      const file = (await upload(randomBytes(2 * 1024 * 1024 + 1), { object: 'companies', recordId: doomed, parent: dir }).expect(201)).body.data.id.file_id;
      const kept = (await upload(Buffer.from('kept'), { object: 'companies', recordId: companyId }).expect(201)).body.data.id.file_id;
      const location = (await get(`/v2/files/${file}/download`).expect(302)).headers.location;
      const chunksOf = async (id: string) => (await db().query(`SELECT count(*)::int AS n FROM file_chunks WHERE workspace_id = $1 AND file_id = $2`, [ws.workspaceId, id]))[0].n;
      expect(await chunksOf(file)).toBe(3);

      await del(`/v2/objects/companies/records/${doomed}`).expect(200);
      await get(`/v2/files/${file}`).expect(404);
      await get(`/v2/files/${dir}`).expect(404);
      await t.http().get(pathOf(location)).expect(404);
      expect(await chunksOf(file)).toBe(0);
      await get(`/v2/files/${kept}`).expect(200);
    });
  });
});

/** supertest's parser that keeps a body as bytes, whatever its type. */
function binary(res: unknown, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  const stream = res as NodeJS.ReadableStream;
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}
