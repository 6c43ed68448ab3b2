import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { type Actor, isUuid, NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { MAX_NAME_LENGTH } from '../domain/file-entry';
import { keptMediaType, MAX_MEDIA_TYPE_LENGTH } from '../domain/media-type';
import { FileRepository } from '../infrastructure/file.repository';
import { FILE_CONTENTS, type FileContents } from './file-contents';
import { parentFolderFor } from './file-checks';
import type { PlacedEntry } from './file.commands';
import { type RecordPlace, RecordPlaces } from './record-places';

/** One part of a multipart upload, in the order the client sent them. */
export type UploadPart =
  | { readonly kind: 'field'; readonly name: string; readonly value: string }
  /** `contentType` as the part declared it (parameters included), checked here. */
  | { readonly kind: 'file'; readonly name: string; readonly filename: string; readonly contentType: string; readonly content: Readable };

const FIELDS = ['file', 'object', 'record_id', 'parent_folder_id'] as const;
type FieldName = (typeof FIELDS)[number];

interface Written {
  readonly fileId: string;
  readonly storageKey: string | null;
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
}

/**
 * `POST /v2/files/upload`: reads the parts as they arrive. The `file` part may come before or after
 * the `object` and `record_id` fields (the reference's typed client sends it first), so its bytes
 * are streamed into storage under an `uploading` entry that no read sees; the entry is made a file
 * of its record only when every field has checked out, in one UPDATE. Any failure (a bad field, an
 * unknown record, the client going away, too many bytes) deletes the entry and its bytes: a failed
 * upload leaves nothing. When the fields come first, they are checked before any byte is stored.
 */
@Injectable()
export class UploadFileUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly files: FileRepository,
    private readonly places: RecordPlaces,
    @Inject(FILE_CONTENTS) private readonly contents: FileContents,
  ) {}

  async execute(workspaceId: string, actor: Actor, parts: AsyncIterable<UploadPart>): Promise<PlacedEntry> {
    const fields = new Map<FieldName, string>();
    let written: Written | null = null;
    let pending: { fileId: string; storageKey: string | null } | null = null;
    try {
      for await (const part of parts) {
        const name = knownField(part.name);
        if (fields.has(name) || (name === 'file' && (written || pending))) throw new ValidationError(`${name}: given more than once.`, { field: name });
        if (part.kind === 'field' && name !== 'file') {
          fields.set(name, textOf(name, part.value));
          continue;
        }
        if (name !== 'file') throw new ValidationError(`${name}: must be a text field, not a file.`, { field: name });
        // Fields sent before the file are checked before its bytes are stored.
        if (fields.has('object') && fields.has('record_id')) await this.placeOf(workspaceId, fields);
        const upload =
          part.kind === 'file'
            ? { name: part.filename, contentType: mediaTypeOf(part.contentType), content: part.content }
            : // The reference's typed client (2.3.0) sends `file` as a string field: its text is the file.
              { name: 'file', contentType: 'text/plain', content: Readable.from([Buffer.from(part.value, 'utf8')]) };
        fileNameOf(upload.name);
        const fileId = randomUUID();
        pending = { fileId, storageKey: this.contents.keyFor(workspaceId, fileId) };
        await this.files.insertUploading(workspaceId, fileId, pending.storageKey, actor);
        const size = await this.contents.write({ workspaceId, fileId, storageKey: pending.storageKey, contentType: upload.contentType }, upload.content);
        written = { ...pending, name: upload.name, contentType: upload.contentType, size };
      }
      if (!written) throw new ValidationError('file: the upload has no file part named "file".', { field: 'file' });
      return await this.complete(workspaceId, fields, written);
    } catch (error) {
      if (pending) await this.abandon(workspaceId, pending);
      throw error;
    }
  }

  private async complete(workspaceId: string, fields: Map<FieldName, string>, written: Written): Promise<PlacedEntry> {
    const place = await this.placeOf(workspaceId, fields);
    const parentFolderId = fields.get('parent_folder_id')?.toLowerCase() ?? null;
    return this.transactions.run(async () => {
      if (parentFolderId) await parentFolderFor(this.files, workspaceId, place.recordId, parentFolderId);
      const entry = await this.files.completeUpload(workspaceId, written.fileId, {
        objectId: place.objectId,
        recordId: place.recordId,
        parentFolderId,
        name: written.name,
        contentType: written.contentType,
        contentSize: written.size,
      });
      if (!entry) throw new NotFoundError(`file: the upload ${written.fileId} was removed before it completed; send it again.`, { field: 'file' });
      return { entry, objectSlug: place.objectSlug };
    });
  }

  private async placeOf(workspaceId: string, fields: Map<FieldName, string>): Promise<RecordPlace> {
    const object = fields.get('object');
    if (!object) throw new ValidationError('object: is required (the slug or id of the record\'s object).', { field: 'object' });
    const recordId = uuidField(fields, 'record_id');
    if (!recordId) throw new ValidationError('record_id: is required.', { field: 'record_id' });
    uuidField(fields, 'parent_folder_id');
    return this.places.recordOf(workspaceId, object, recordId);
  }

  /** Takes a failed upload back: its entry (and chunks), and its object in external storage, at once or, if that fails, by the housekeeping. */
  private async abandon(workspaceId: string, pending: { fileId: string; storageKey: string | null }): Promise<void> {
    await this.files.deleteUploading(workspaceId, pending.fileId);
    if (!pending.storageKey) return;
    try {
      await this.contents.discard(pending.storageKey);
    } catch {
      await this.files.recordDiscarded(workspaceId, [pending.storageKey]);
    }
  }
}

function knownField(name: string): FieldName {
  if ((FIELDS as readonly string[]).includes(name)) return name as FieldName;
  throw new ValidationError(`${name}: is not a field of an upload (expected ${FIELDS.join(', ')}).`, { field: name });
}

function textOf(name: string, value: string): string {
  if (value.includes('\u0000')) throw new ValidationError(`${name}: must not contain NUL characters.`, { field: name });
  return value;
}

function uuidField(fields: Map<FieldName, string>, name: 'record_id' | 'parent_folder_id'): string | null {
  const value = fields.get(name);
  if (value === undefined) return null;
  if (!isUuid(value)) throw new ValidationError(`${name}: must be a UUID.`, { field: name });
  return value.toLowerCase();
}

/** A file's media type is kept as sent, parameters included, but it must be one: it is served back as the download's Content-Type. */
function mediaTypeOf(declared: string): string {
  const kept = keptMediaType(declared);
  if (kept === null) {
    throw new ValidationError(
      `file: the file part's Content-Type is not a media type (type/subtype, then "; name=value" parameters, visible ASCII only, at most ${MAX_MEDIA_TYPE_LENGTH} characters).`,
      { field: 'file' },
    );
  }
  return kept;
}

/** A file name is kept as sent, but it must be one: not empty, no NUL (PostgreSQL text cannot hold it), at most 1024 characters. */
function fileNameOf(name: string): string {
  if (name.length === 0) throw new ValidationError('file: the file part has an empty file name.', { field: 'file' });
  if (name.includes('\u0000')) throw new ValidationError('file: the file name must not contain NUL characters.', { field: 'file' });
  if (name.length > MAX_NAME_LENGTH) throw new ValidationError(`file: the file name is longer than ${MAX_NAME_LENGTH} characters.`, { field: 'file' });
  return name;
}
