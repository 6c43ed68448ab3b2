import { NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { type FileEntry, isFolder } from '../domain/file-entry';
import { FileRepository } from '../infrastructure/file.repository';

export function fileNotFound(fileId: string): NotFoundError {
  return new NotFoundError(`File not found: no file with id ${fileId}.`, { field: 'file_id' });
}

/** The folder an entry goes under: a folder of the same record, else 404 (unknown) or 400 (not a folder, another record's). */
export async function parentFolderFor(files: FileRepository, workspaceId: string, recordId: string, parentFolderId: string): Promise<FileEntry> {
  const parent = await files.findById(workspaceId, parentFolderId);
  if (!parent) throw new NotFoundError(`parent_folder_id: no folder with id ${parentFolderId}.`, { field: 'parent_folder_id' });
  if (!isFolder(parent)) throw new ValidationError(`parent_folder_id: ${parentFolderId} is a ${parent.fileType}, not a folder.`, { field: 'parent_folder_id' });
  if (parent.recordId !== recordId) throw new ValidationError(`parent_folder_id: folder ${parentFolderId} belongs to another record.`, { field: 'parent_folder_id' });
  return parent;
}
