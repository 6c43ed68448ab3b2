import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CursorQueryParam, LimitQueryParam, NonEmptyText, NoNulCharacters, OptionalUuid, Uuid } from '@workbase/shared/http';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { CONNECTED_PROVIDERS, type ConnectedProvider, MAX_NAME_LENGTH, STORAGE_PROVIDERS, type StorageProvider } from '../../domain/file-entry';

export const FILES_PAGE = { min: 1, max: 200, default: 50 } as const;

export class ListFilesQuery {
  @NonEmptyText({ description: 'Slug or UUID of the record\'s object' })
  object!: string;

  @Uuid('The record whose files are listed')
  record_id!: string;

  @ApiPropertyOptional({ enum: STORAGE_PROVIDERS, description: 'Only entries of this provider' })
  @IsOptional()
  @IsIn(STORAGE_PROVIDERS)
  storage_provider?: StorageProvider;

  @OptionalUuid('Only the entries directly in this folder (of the same record); without it, entries at every level')
  parent_folder_id?: string;

  @LimitQueryParam(FILES_PAGE)
  limit?: number;

  @CursorQueryParam('`pagination.next_cursor` of the previous page, with the same `limit` and filters')
  cursor?: string;
}

const ENTRY_KINDS = ['folder', 'connected-file', 'connected-folder'] as const;

/**
 * `POST /v2/files`: one flat body (not wrapped in `data`, as in the reference) for the three kinds
 * it makes; which fields a kind needs is checked by the controller, naming the field.
 */
export class CreateFileEntryRequest {
  @NonEmptyText({ description: 'Slug or UUID of the record\'s object' })
  object!: string;

  @Uuid('The record the entry belongs to')
  record_id!: string;

  @ApiProperty({ enum: ENTRY_KINDS, description: 'Uploads are made by POST /v2/files/upload' })
  @IsIn(ENTRY_KINDS)
  file_type!: (typeof ENTRY_KINDS)[number];

  @ApiPropertyOptional({ description: 'Folders: the folder name, 1–1024 characters', maxLength: MAX_NAME_LENGTH })
  @IsOptional()
  @NoNulCharacters()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_NAME_LENGTH)
  name?: string;

  @OptionalUuid('Folders: the folder to create it in (a folder of the same record); absent: the top level')
  parent_folder_id?: string;

  @ApiPropertyOptional({ enum: CONNECTED_PROVIDERS, description: 'Connected entries: their provider' })
  @IsOptional()
  @IsIn(CONNECTED_PROVIDERS)
  storage_provider?: ConnectedProvider;

  @ApiPropertyOptional({ description: 'Connected entries: the provider\'s id of the file or folder', maxLength: MAX_NAME_LENGTH })
  @IsOptional()
  @NoNulCharacters()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_NAME_LENGTH)
  external_provider_file_id?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Connected microsoft-onedrive entries: the drive id' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @NoNulCharacters()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_NAME_LENGTH)
  microsoft_drive_id?: string | null;
}

/** The query of a signed download URL, as GET /v2/files/{file_id}/download makes it. */
export class FileContentQuery {
  @Uuid('The workspace of the file')
  workspace_id!: string;

  @NonEmptyText({ description: 'Expiry, in seconds since the Unix epoch' })
  expires!: string;

  @NonEmptyText({ description: 'HMAC-SHA256 signature of the workspace, file and expiry' })
  signature!: string;
}

/** The multipart body of an upload, for the OpenAPI document (the handler streams the parts itself). */
export class UploadFileRequest {
  @ApiProperty({ type: 'string', format: 'binary', description: 'The file: a part with a file name, up to 50 MiB (52,428,800 bytes). A plain text field is stored as a text/plain file named `file`.' })
  file!: unknown;

  @ApiProperty({ description: 'Slug or UUID of the record\'s object' })
  object!: string;

  @ApiProperty({ format: 'uuid' })
  record_id!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A folder of the same record; absent: the top level' })
  parent_folder_id?: string;
}
