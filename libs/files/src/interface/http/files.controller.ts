import { pipeline } from 'node:stream';
import { Body, Controller, Delete, Get, HttpCode, Logger, Param, ParseUUIDPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiConsumes, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiPayloadTooLargeResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import contentDisposition from 'content-disposition';
import type { Request, Response } from 'express';
import { ApiErrorResponse, type AuthContext, CurrentAuth, CursorCodec, EmptyBody, Public, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES, ValidationError } from '@workbase/shared/kernel';
import { FileCommands, type PlacedEntry } from '../../application/file.commands';
import { FileQueries } from '../../application/file.queries';
import { UploadFileUseCase } from '../../application/upload-file.use-case';
import { CreateFileEntryRequest, FileContentQuery, FILES_PAGE, ListFilesQuery, UploadFileRequest } from './file.requests';
import { CreatedFileEntryEnvelope, FileEntryEnvelope, FileEntryPageEnvelope, type FileEntryResponse, toFileEntryResponse, UploadedFileEnvelope } from './file.responses';
import { multipartParts } from './multipart-parts';

const fileIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('File not found: file_id must be a UUID.', { field: 'file_id' }) });
const fileParam = { name: 'file_id', description: 'File UUID' };
// The reference's file scopes: reading needs the object and the record too, as every operation does.
const read = [SCOPES.fileRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead];
const write = [SCOPES.fileReadWrite, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead];
const CURSOR_KIND = 'files';
const BETA = 'Beta in the reference API (files arrived in its 2026-03 spec); Workbase follows its shapes. ';

@ApiTags('Files')
@Controller('v2/files')
export class FilesController {
  private readonly logger = new Logger('FilesController');

  constructor(
    private readonly queries: FileQueries,
    private readonly commands: FileCommands,
    private readonly uploadFile: UploadFileUseCase,
    private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @ScopedOperation({
    scopes: read,
    summary: 'List a record\'s files and folders',
    description:
      BETA +
      'The entries of one record, in (created_at, id) order. Without `parent_folder_id`, entries at every level; with it, the entries directly in that folder. ' +
      'Cursor pagination: pass `pagination.next_cursor` back as `cursor` with the same `limit` and filters (else 400); it is null on the last page. ' +
      'An unknown object, record or folder (or a folder of another record) is a 404.',
    ok: FileEntryPageEnvelope,
  })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListFilesQuery): Promise<FileEntryPageEnvelope> {
    const limit = query.limit ?? FILES_PAGE.default;
    const recordId = query.record_id.toLowerCase();
    const parentFolderId = query.parent_folder_id?.toLowerCase() ?? null;
    const binding = { workspace: auth.workspaceId, object: query.object, record_id: recordId, storage_provider: query.storage_provider, parent_folder_id: parentFolderId ?? undefined, limit };
    const after = query.cursor === undefined ? null : this.cursors.decode(CURSOR_KIND, binding, query.cursor);
    if (after && (typeof after.created_at !== 'string' || typeof after.id !== 'string')) throw new ValidationError('cursor: the cursor is malformed.', { field: 'cursor' });
    const page = await this.queries.list(auth.workspaceId, {
      object: query.object,
      recordId,
      storageProvider: query.storage_provider ?? null,
      parentFolderId,
      limit,
      after: after ? { createdAt: after.created_at as string, id: after.id as string } : null,
    });
    const last = page.entries.at(-1);
    const nextCursor = page.more && last ? this.cursors.encode(CURSOR_KIND, binding, { created_at: last.createdAt.toISOString(), id: last.id }) : null;
    return { data: page.entries.map((entry) => toFileEntryResponse(entry, page.objectSlug)), pagination: { next_cursor: nextCursor } };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: write,
    summary: 'Create a folder or a connected file or folder',
    description:
      BETA +
      'A flat body (not wrapped in `data`), one of: a folder `{object, record_id, file_type: "folder", name, parent_folder_id?}`; or a connected entry ' +
      '`{object, record_id, file_type: "connected-file" | "connected-folder", storage_provider, external_provider_file_id, microsoft_drive_id?}`, ' +
      'kept as given (Workbase cannot reach the providers, so connected entries are listed but not downloaded). `microsoft_drive_id` only with `microsoft-onedrive`. ' +
      'Fields of the other kind are a 400 naming them. An unknown object, record or parent folder is a 404; a parent folder of another record, or not a folder, a 400.',
    ok: CreatedFileEntryEnvelope,
  })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: CreateFileEntryRequest): Promise<CreatedFileEntryEnvelope> {
    const target = { workspaceId: auth.workspaceId, actor: auth.actor, object: body.object, recordId: body.record_id.toLowerCase() };
    if (body.file_type === 'folder') {
      refuseFields(body, ['storage_provider', 'external_provider_file_id', 'microsoft_drive_id'], 'a folder');
      if (body.name === undefined) throw new ValidationError('name: is required for a folder.', { field: 'name' });
      return answer(await this.commands.createFolder(target, { name: body.name, parentFolderId: body.parent_folder_id?.toLowerCase() ?? null }));
    }
    refuseFields(body, ['name', 'parent_folder_id'], `a ${body.file_type}`);
    if (body.storage_provider === undefined) throw new ValidationError(`storage_provider: is required for a ${body.file_type}.`, { field: 'storage_provider' });
    if (body.external_provider_file_id === undefined) throw new ValidationError(`external_provider_file_id: is required for a ${body.file_type}.`, { field: 'external_provider_file_id' });
    return answer(
      await this.commands.createConnected(target, {
        fileType: body.file_type,
        storageProvider: body.storage_provider,
        externalProviderFileId: body.external_provider_file_id,
        microsoftDriveId: body.microsoft_drive_id ?? null,
      }),
    );
  }

  @Post('upload')
  @HttpCode(201)
  @ScopedOperation({
    scopes: write,
    summary: 'Upload a file',
    description:
      BETA +
      '`multipart/form-data` with one file part named `file` (its file name and `Content-Type` are kept as sent, the type\'s parameters such as `charset` included; up to 50 MiB = 52,428,800 bytes) and the fields `object`, `record_id` and, optionally, ' +
      '`parent_folder_id`, in any order. The bytes are streamed to storage as they arrive; a failed upload leaves nothing behind. ' +
      'A `file` sent as a plain text field (as the reference\'s typed client 2.3.0 does) is stored as a `text/plain` file named `file` (at most 1 MiB). ' +
      'A body whose Content-Length is over the limit is refused before it is read; a chunked body as soon as it passes the limit (413).',
    standardErrors: false,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadFileRequest })
  @ApiCreatedResponse({ type: UploadedFileEnvelope })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: 'Not multipart, a missing `file`, `object` or `record_id`, an unknown or repeated field, a `record_id` or `parent_folder_id` that is not a UUID, a parent folder of another record, a file part whose `Content-Type` is not a media type (visible ASCII, at most 255 characters)' })
  @ApiNotFoundResponse({ type: ApiErrorResponse, description: 'Unknown object, record or parent folder' })
  @ApiPayloadTooLargeResponse({ type: ApiErrorResponse, description: '`validation_type` (413): the file is larger than 50 MiB' })
  async upload(@CurrentAuth() auth: AuthContext, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<UploadedFileEnvelope> {
    const placed = await this.uploadFile.execute(auth.workspaceId, auth.actor, multipartParts(req, res));
    return { data: toFileEntryResponse(placed.entry, placed.objectSlug) as UploadedFileEnvelope['data'] };
  }

  @Get(':file_id')
  @ScopedOperation({ scopes: read, summary: 'Get a file or folder', description: BETA + 'A folder also says whether anything is in it (`has_children`).', params: [fileParam], ok: FileEntryEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('file_id', fileIdPipe) fileId: string): Promise<FileEntryEnvelope> {
    const found = await this.queries.get(auth.workspaceId, fileId.toLowerCase());
    return { data: toFileEntryResponse(found.entry, found.objectSlug, found.hasChildren) };
  }

  @Delete(':file_id')
  @ScopedOperation({ scopes: write, summary: 'Delete a file or folder', description: BETA + 'A folder is deleted with everything in it; the bytes of deleted uploads go too, and their download URLs stop serving them.', params: [fileParam], ok: EmptyBody })
  async delete(@CurrentAuth() auth: AuthContext, @Param('file_id', fileIdPipe) fileId: string): Promise<EmptyBody> {
    await this.commands.delete(auth.workspaceId, fileId.toLowerCase());
    return {};
  }

  @Get(':file_id/download')
  @ScopedOperation({
    scopes: read,
    summary: 'Download a file',
    description:
      BETA +
      'A 302 to a signed URL of this service (`Location`, absolute, from BASE_URL) that serves the bytes without a token for FILE_URL_TTL_SECONDS (default 300). ' +
      'A folder or a connected entry has nothing to download (400).',
    params: [fileParam],
  })
  @ApiResponse({ status: 302, description: 'Redirect to the signed URL; the body is an empty JSON object', type: EmptyBody, headers: { Location: { description: 'The signed download URL', schema: { type: 'string', format: 'uri' } } } })
  async download(@CurrentAuth() auth: AuthContext, @Param('file_id', fileIdPipe) fileId: string, @Res({ passthrough: true }) res: Response): Promise<EmptyBody> {
    const url = await this.queries.downloadUrl(auth.workspaceId, fileId.toLowerCase());
    res.status(302).setHeader('Location', url);
    res.setHeader('Cache-Control', 'no-store');
    return {};
  }

  @Get(':file_id/content')
  @Public()
  @ApiOperation({
    summary: 'The bytes behind a signed download URL',
    description:
      'Not called directly: GET /v2/files/{file_id}/download redirects here. No token; the signature is the authority. An altered URL, or one past its expiry, is a 403 (`auth_error`); ' +
      'a file deleted since is a 404. Served as an attachment (`Content-Disposition` with the RFC 6266 `filename*`), with the stored media type, `Content-Length` and `X-Content-Type-Options: nosniff`.',
  })
  @ApiParam(fileParam)
  // Only the 200 is bytes: a refusal is the usual JSON error, so the media type is per response, not the operation's.
  @ApiOkResponse({
    description: 'The file\'s bytes, served as the media type its upload declared (parameters such as `charset` included; `application/octet-stream` if none), whatever that type is',
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: 'A query parameter missing' })
  @ApiForbiddenResponse({ type: ApiErrorResponse, description: 'Altered or expired URL' })
  @ApiNotFoundResponse({ type: ApiErrorResponse, description: 'The file was deleted' })
  async content(@Param('file_id', fileIdPipe) fileId: string, @Query() query: FileContentQuery, @Res() res: Response): Promise<void> {
    const expiresAt = /^\d{1,12}$/.test(query.expires) ? Number(query.expires) : -1;
    const { entry, content } = await this.queries.open({ workspaceId: query.workspace_id.toLowerCase(), fileId: fileId.toLowerCase(), expiresAt, signature: query.signature });
    res.status(200);
    res.setHeader('Content-Type', entry.contentType ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(entry.contentSize ?? 0));
    // The name is the client's: content-disposition quotes it and puts anything outside ISO-8859-1 (and any control character) in the RFC 5987 filename*, so it cannot break out of the header.
    res.setHeader('Content-Disposition', contentDisposition(entry.name ?? 'file', { type: 'attachment' }));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cache-Control', 'private, no-store');
    pipeline(content, res, (error) => {
      if (error && !res.destroyed) res.destroy(error);
      if (error && error.name !== 'AbortError' && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') this.logger.warn(`download of file ${entry.id} failed: ${error.message}`);
    });
  }
}

function answer(placed: PlacedEntry): { data: FileEntryResponse } {
  return { data: toFileEntryResponse(placed.entry, placed.objectSlug) };
}

/** A field of the other kind of entry is a 400 naming it, not silently ignored. */
function refuseFields(body: CreateFileEntryRequest, fields: ReadonlyArray<keyof CreateFileEntryRequest>, kind: string): void {
  const given = fields.find((field) => body[field] !== undefined);
  if (given) throw new ValidationError(`${given}: is not a field of ${kind}.`, { field: given });
}
