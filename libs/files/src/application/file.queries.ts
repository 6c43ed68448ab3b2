import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { DomainError, NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { DownloadSigner } from '../domain/download-signature';
import { type FileEntry, hasContent, isFolder, type StorageProvider } from '../domain/file-entry';
import { FileRepository } from '../infrastructure/file.repository';
import { FILE_CONTENTS, type FileContents } from './file-contents';
import { fileNotFound } from './file-checks';
import type { PlacedEntry } from './file.commands';
import { RecordPlaces } from './record-places';

export interface FilePage {
  readonly objectSlug: string;
  readonly entries: FileEntry[];
  /** More entries follow the last one of this page. */
  readonly more: boolean;
}

/** An opened download: the entry and a stream of its bytes. */
export interface OpenedFile {
  readonly entry: FileEntry;
  readonly content: Readable;
}

/** Reads of file entries, their signed download URLs, and the bytes those URLs serve. */
@Injectable()
export class FileQueries {
  private readonly signer: DownloadSigner;

  constructor(
    private readonly files: FileRepository,
    private readonly places: RecordPlaces,
    @Inject(FILE_CONTENTS) private readonly contents: FileContents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.signer = new DownloadSigner(config.files.urlSecret);
  }

  async list(
    workspaceId: string,
    query: { object: string; recordId: string; storageProvider: StorageProvider | null; parentFolderId: string | null; limit: number; after: { createdAt: string; id: string } | null },
  ): Promise<FilePage> {
    const place = await this.places.recordOf(workspaceId, query.object, query.recordId);
    if (query.parentFolderId) {
      const folder = await this.files.findById(workspaceId, query.parentFolderId);
      if (!folder || !isFolder(folder) || folder.recordId !== place.recordId) {
        throw new NotFoundError(`parent_folder_id: no folder ${query.parentFolderId} on record ${place.recordId}.`, { field: 'parent_folder_id' });
      }
    }
    const rows = await this.files.listOfRecord(workspaceId, place.recordId, { ...query, limit: query.limit + 1 });
    return { objectSlug: place.objectSlug, entries: rows.slice(0, query.limit), more: rows.length > query.limit };
  }

  /** An entry with its object's slug; a folder also says whether anything is under it. */
  async get(workspaceId: string, fileId: string): Promise<PlacedEntry & { hasChildren: boolean | null }> {
    const entry = await this.files.findById(workspaceId, fileId);
    if (!entry) throw fileNotFound(fileId);
    const hasChildren = isFolder(entry) ? await this.files.hasChildren(workspaceId, fileId) : null;
    return { entry, objectSlug: await this.places.slugOf(workspaceId, entry.objectId), hasChildren };
  }

  /** An absolute URL that serves the file's bytes without a token until it expires (FILE_URL_TTL_SECONDS). */
  async downloadUrl(workspaceId: string, fileId: string, nowMs = Date.now()): Promise<string> {
    const entry = await this.files.findById(workspaceId, fileId);
    if (!entry) throw fileNotFound(fileId);
    if (!hasContent(entry)) throw new ValidationError(`file_id: ${fileId} is a ${entry.fileType}; only uploaded files can be downloaded.`, { field: 'file_id' });
    const expiresAt = Math.floor(nowMs / 1000) + this.config.files.urlTtlSeconds;
    const signature = this.signer.sign({ workspaceId, fileId, expiresAt });
    const query = new URLSearchParams({ workspace_id: workspaceId, expires: String(expiresAt), signature });
    return `${this.config.baseUrl}/v2/files/${fileId}/content?${query.toString()}`;
  }

  /**
   * The bytes a signed URL names. A signature that does not verify, or has expired, is a 403 and
   * reads nothing; a file deleted since the URL was made is a 404.
   */
  async open(grant: { workspaceId: string; fileId: string; expiresAt: number; signature: string }, nowMs = Date.now()): Promise<OpenedFile> {
    const verdict = this.signer.verify(grant, grant.signature, Math.floor(nowMs / 1000));
    if (verdict === 'invalid') throw new DomainError('forbidden', 'signature: the download URL is not valid (altered, or signed with another key); ask GET /v2/files/{file_id}/download for a new one.', { field: 'signature' });
    if (verdict === 'expired') throw new DomainError('forbidden', 'expires: the download URL has expired; ask GET /v2/files/{file_id}/download for a new one.', { field: 'expires' });
    const entry = await this.files.findById(grant.workspaceId, grant.fileId);
    if (!entry || !hasContent(entry)) throw fileNotFound(grant.fileId);
    const content = await this.contents.read({ workspaceId: entry.workspaceId, fileId: entry.id, storageKey: entry.storageKey, contentSize: entry.contentSize ?? 0 });
    return { entry, content };
  }
}
