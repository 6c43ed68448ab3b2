import { ApiProperty } from '@nestjs/swagger';
import { ActorResponse } from '@workbase/shared/http';
import { TRASH_KINDS, type TrashKind } from '@workbase/shared/kernel';
import type { TrashEntry } from '../../application/trash.queries';

export class TrashItemResponse {
  @ApiProperty({ enum: TRASH_KINDS }) kind!: TrashKind;
  @ApiProperty({ description: 'The id the item had (and has again once restored): record, entry, note, task or comment id' }) id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The object of a record, the list of an entry; null for other kinds' }) container_id!: string | null;
  @ApiProperty({ example: '2026-11-28T00:00:00.000Z' }) deleted_at!: string;
  @ApiProperty({ type: ActorResponse, description: 'Who deleted it' }) deleted_by!: ActorResponse;
  @ApiProperty({ description: 'When the worker removes it for good (deleted_at + TRASH_RETENTION_DAYS)' }) expires_at!: string;
}

class TrashPagination {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor!: string | null;
}

export class TrashPageEnvelope {
  @ApiProperty({ type: [TrashItemResponse] }) data!: TrashItemResponse[];
  @ApiProperty({ type: TrashPagination }) pagination!: TrashPagination;
}

export function toTrashItemResponse(entry: TrashEntry, retentionDays: number): TrashItemResponse {
  const expires = new Date(new Date(entry.deletedAt).getTime() + retentionDays * 24 * 3600 * 1000);
  return {
    kind: entry.kind,
    id: entry.id,
    container_id: entry.containerId,
    deleted_at: entry.deletedAt,
    deleted_by: { type: entry.deletedBy.type, id: entry.deletedBy.id },
    expires_at: expires.toISOString(),
  };
}
