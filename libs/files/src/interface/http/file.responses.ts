import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ActorResponse } from '@workbase/shared/http';
import { STORAGE_PROVIDERS, type FileEntry, type StorageProvider } from '../../domain/file-entry';

class FileIdResponse {
  @ApiProperty({ format: 'uuid' }) workspace_id!: string;
  @ApiProperty({ format: 'uuid' }) file_id!: string;
}

/** Fields every kind of entry has. */
class FileEntryBase {
  @ApiProperty({ type: FileIdResponse }) id!: FileIdResponse;
  @ApiProperty({ format: 'uuid' }) object_id!: string;
  @ApiProperty({ example: 'people' }) object_slug!: string;
  @ApiProperty({ format: 'uuid' }) record_id!: string;
  @ApiProperty({ enum: STORAGE_PROVIDERS, description: '`attio` for uploads and folders (Workbase\'s own storage, named as in the reference)' }) storage_provider!: StorageProvider;
  @ApiProperty({ type: ActorResponse, description: '`id` is absent for the system' }) created_by_actor!: { type: string; id?: string };
  @ApiProperty({ example: '2026-03-02T15:00:00.000Z' }) created_at!: string;
}

export class UploadedFileResponse extends FileEntryBase {
  @ApiProperty({ enum: ['file'] }) file_type!: 'file';
  @ApiProperty({ description: 'The file name of the multipart part, as sent' }) name!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The file part\'s `Content-Type` as sent, parameters such as `charset` and case included (`text/plain` when the part declared none); the download serves it' }) content_type!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Bytes' }) content_size!: number | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: the top level' }) parent_folder_id!: string | null;
}

export class FolderResponse extends FileEntryBase {
  @ApiProperty({ enum: ['folder'] }) file_type!: 'folder';
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: the top level' }) parent_folder_id!: string | null;
}

export class FolderWithChildrenResponse extends FolderResponse {
  @ApiProperty({ description: 'Whether any entry is directly in this folder (GET of one folder only)' }) has_children!: boolean;
}

/** Fields of a connected file or folder. */
class ConnectedEntryBase extends FileEntryBase {
  @ApiProperty() external_provider_file_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Set for microsoft-onedrive only' }) microsoft_drive_id!: string | null;
}

export class ConnectedFileResponse extends ConnectedEntryBase {
  @ApiProperty({ enum: ['connected-file'] }) file_type!: 'connected-file';
}

export class ConnectedFolderResponse extends ConnectedEntryBase {
  @ApiProperty({ enum: ['connected-folder'] }) file_type!: 'connected-folder';
}

export type FileEntryResponse = UploadedFileResponse | FolderResponse | FolderWithChildrenResponse | ConnectedFileResponse | ConnectedFolderResponse;

const oneOfKinds = (...kinds: Array<new () => unknown>) => ({ oneOf: kinds.map((kind) => ({ $ref: getSchemaPath(kind) })), discriminator: { propertyName: 'file_type' } });

class CursorPage {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor!: string | null;
}

@ApiExtraModels(UploadedFileResponse, FolderResponse, FolderWithChildrenResponse, ConnectedFileResponse, ConnectedFolderResponse)
export class FileEntryPageEnvelope {
  @ApiProperty({ type: 'array', items: oneOfKinds(UploadedFileResponse, FolderResponse, ConnectedFileResponse, ConnectedFolderResponse) }) data!: FileEntryResponse[];
  @ApiProperty({ type: CursorPage }) pagination!: CursorPage;
}

@ApiExtraModels(FolderWithChildrenResponse)
export class FileEntryEnvelope {
  @ApiProperty(oneOfKinds(UploadedFileResponse, FolderWithChildrenResponse, ConnectedFileResponse, ConnectedFolderResponse)) data!: FileEntryResponse;
}

export class CreatedFileEntryEnvelope {
  @ApiProperty(oneOfKinds(FolderResponse, ConnectedFileResponse, ConnectedFolderResponse)) data!: FileEntryResponse;
}

export class UploadedFileEnvelope {
  @ApiProperty({ type: UploadedFileResponse }) data!: UploadedFileResponse;
}

/** The wire shape of an entry, field by field for its kind; `hasChildren` is given for GET of one folder. */
export function toFileEntryResponse(entry: FileEntry, objectSlug: string, hasChildren: boolean | null = null): FileEntryResponse {
  const base = {
    id: { workspace_id: entry.workspaceId, file_id: entry.id },
    object_id: entry.objectId,
    object_slug: objectSlug,
    record_id: entry.recordId,
    storage_provider: entry.storageProvider,
    // The reference types the actor's id as an optional string: the system has none, so it is left out rather than null.
    created_by_actor: entry.createdBy.id === null ? { type: entry.createdBy.type } : { type: entry.createdBy.type, id: entry.createdBy.id },
    created_at: entry.createdAt.toISOString(),
  };
  switch (entry.fileType) {
    case 'file':
      return { ...base, file_type: 'file', name: entry.name ?? '', content_type: entry.contentType, content_size: entry.contentSize, parent_folder_id: entry.parentFolderId };
    case 'folder':
      return { ...base, file_type: 'folder', name: entry.name ?? '', parent_folder_id: entry.parentFolderId, ...(hasChildren === null ? {} : { has_children: hasChildren }) };
    case 'connected-file':
    case 'connected-folder':
      return { ...base, file_type: entry.fileType, external_provider_file_id: entry.externalProviderFileId ?? '', microsoft_drive_id: entry.microsoftDriveId } as ConnectedFileResponse | ConnectedFolderResponse;
  }
}
