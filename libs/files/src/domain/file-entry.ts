import type { Actor } from '@workbase/shared/kernel';

export const FILE_TYPES = ['file', 'folder', 'connected-file', 'connected-folder'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** `attio` is the reference's own storage (uploads and folders); the others are providers of connected entries. */
export const STORAGE_PROVIDERS = ['attio', 'dropbox', 'box', 'google-drive', 'microsoft-onedrive'] as const;
export type StorageProvider = (typeof STORAGE_PROVIDERS)[number];
export const CONNECTED_PROVIDERS = ['dropbox', 'box', 'google-drive', 'microsoft-onedrive'] as const;
export type ConnectedProvider = (typeof CONNECTED_PROVIDERS)[number];

/** The largest upload: the reference's "50 MB", read as 50 MiB so that nothing it documents is refused. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** The longest name of a file or folder (and of a connected entry's provider ids). */
export const MAX_NAME_LENGTH = 1024;

/** One entry of a record's files: an uploaded file, a folder, or a connected provider's file or folder. */
export interface FileEntry {
  readonly workspaceId: string;
  readonly id: string;
  readonly objectId: string;
  readonly recordId: string;
  readonly parentFolderId: string | null;
  readonly fileType: FileType;
  readonly storageProvider: StorageProvider;
  /** Files and folders; null on connected entries. */
  readonly name: string | null;
  readonly contentType: string | null;
  readonly contentSize: number | null;
  /** Where the bytes of an uploaded file live (the S3 object key); null in PostgreSQL storage and for every other kind. */
  readonly storageKey: string | null;
  readonly externalProviderFileId: string | null;
  readonly microsoftDriveId: string | null;
  readonly createdBy: Actor;
  readonly createdAt: Date;
}

/** Only uploaded files have bytes to download; folders and connected entries do not. */
export function hasContent(entry: FileEntry): boolean {
  return entry.fileType === 'file';
}

/** Folders hold other entries; nothing else can be a parent. */
export function isFolder(entry: FileEntry): boolean {
  return entry.fileType === 'folder';
}
