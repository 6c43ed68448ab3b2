import { randomBytes } from 'node:crypto';
import { createAttioClient, createFileId, deleteV2FilesByFileId, getFileDownloadUrl, getV2Files, getV2FilesByFileId, postV2Files, postV2FilesUpload } from 'attio-ts-sdk';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * The reference API's typed client (attio-ts-sdk 2.3.0, unmodified) against Workbase listening on
 * loopback: every files call it makes, with its Zod validation of each answer on. A shape that
 * drifts from the reference's (a missing field, a null where it wants a string, a non-RFC 9562
 * UUID) fails here, as it would fail an integrator.
 */
describe('files through the reference\'s typed client', () => {
  const t = useTestApp({ listen: true });
  const ws = useWorkspace(t, 'files-sdk');
  const { createRecord } = bearerRequests(() => t, () => ws.token);
  let recordId: string;
  let client: ReturnType<typeof createAttioClient>;

  beforeAll(async () => {
    recordId = await createRecord('people', { email_addresses: ['sdk@files.example'] });
    client = createAttioClient({ baseUrl: t.baseUrl!, apiKey: ws.token, retry: { maxRetries: 0 } } as Parameters<typeof createAttioClient>[0]);
  });

  it('creates a folder, uploads into it, lists, gets, downloads and deletes', async () => {
    const made = await postV2Files({ client, body: { object: 'people', record_id: recordId, file_type: 'folder', name: 'From the SDK' } });
    const folder = made.data!.data;
    expect(folder).toMatchObject({ file_type: 'folder', name: 'From the SDK', parent_folder_id: null, record_id: recordId });
    const folderId = folder.id.file_id;

    // The 2.3.0 client's TypeScript type says Blob | File, but its request schema (Zod) accepts only a string, which it sends as a
    // text field: Workbase stores that as a text/plain file named "file".
    const asText = await postV2FilesUpload({ client, body: { file: 'hello from the sdk' as unknown as Blob, object: 'people', record_id: recordId, parent_folder_id: folderId } });
    expect(asText.response?.status).toBe(201);
    expect(asText.data!.data).toMatchObject({ file_type: 'file', name: 'file', content_type: 'text/plain', content_size: 18, parent_folder_id: folderId });

    // A real file part, with only the client's request validator set aside (its response validator stays on).
    const bytes = randomBytes(256 * 1024);
    const asFile = await postV2FilesUpload({
      client,
      body: { file: new File([bytes], 'report.pdf', { type: 'application/pdf' }), object: 'people', record_id: recordId },
      requestValidator: async () => undefined,
    });
    const uploaded = asFile.data!.data;
    expect(uploaded).toMatchObject({ name: 'report.pdf', content_type: 'application/pdf', content_size: bytes.length, parent_folder_id: null });

    const listed = await getV2Files({ client, query: { object: 'people', record_id: recordId, limit: 2 } });
    expect(listed.data!.data.map((entry) => entry.id.file_id)).toEqual([folderId, asText.data!.data.id.file_id]);
    const rest = await getV2Files({ client, query: { object: 'people', record_id: recordId, limit: 2, cursor: listed.data!.pagination.next_cursor! } });
    expect(rest.data!.data.map((entry) => entry.id.file_id)).toEqual([uploaded.id.file_id]);
    expect(rest.data!.pagination.next_cursor).toBeNull();
    const inFolder = await getV2Files({ client, query: { object: 'people', record_id: recordId, parent_folder_id: folderId } });
    expect(inFolder.data!.data).toHaveLength(1);

    const gotFolder = await getV2FilesByFileId({ client, path: { file_id: folderId } });
    expect(gotFolder.data!.data).toMatchObject({ file_type: 'folder', has_children: true });
    await getV2FilesByFileId({ client, path: { file_id: uploaded.id.file_id } });

    const location = await getFileDownloadUrl({ client, fileId: createFileId(uploaded.id.file_id) });
    expect(location.startsWith(`${t.config.baseUrl}/v2/files/${uploaded.id.file_id}/content?`)).toBe(true);
    // BASE_URL names the public address, not this test's loopback port: fetch the same path here, with no token.
    const served = await fetch(`${t.baseUrl}${new URL(location).pathname}${new URL(location).search}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    const connected = await postV2Files({ client, body: { object: 'people', record_id: recordId, file_type: 'connected-file', storage_provider: 'google-drive', external_provider_file_id: 'gd-1' } });
    expect(connected.data!.data).toMatchObject({ file_type: 'connected-file', microsoft_drive_id: null });

    const deleted = await deleteV2FilesByFileId({ client, path: { file_id: folderId } });
    expect(deleted.data).toEqual({});
    const gone = await getV2FilesByFileId({ client, path: { file_id: folderId }, throwOnError: false });
    expect(gone.response?.status).toBe(404);
    expect(gone.error).toMatchObject({ type: 'invalid_request_error', code: 'not_found' });
  });
});
