import { ApiProperty } from '@nestjs/swagger';
import { ActorResponse, WrappedData, WrappedList } from '@workbase/shared/http';
import type { Note } from '../../domain/note';

class NoteId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() note_id!: string;
}

export class NoteResponse {
  @ApiProperty({ type: NoteId }) id!: NoteId;
  @ApiProperty({ description: 'Slug of the parent object', example: 'people' }) parent_object!: string;
  @ApiProperty() parent_record_id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) meeting_id!: string | null;
  @ApiProperty({ description: 'Content without formatting; lines separated by \\n' }) content_plaintext!: string;
  @ApiProperty({ description: 'Content as markdown of the documented subset' }) content_markdown!: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    example: [],
    description: '`{type:"workspace-member", workspace_member_id}` or `{type:"record", object, record_id}`',
  })
  tags!: unknown[];
  @ApiProperty({ type: ActorResponse }) created_by_actor!: ActorResponse;
  @ApiProperty() created_at!: string;
}

export class NoteEnvelope extends WrappedData(NoteResponse) {}

export class NoteListEnvelope extends WrappedList(NoteResponse) {}

export function toNoteResponse(note: Note): NoteResponse {
  return {
    id: { workspace_id: note.workspaceId, note_id: note.id },
    parent_object: note.parentObjectSlug,
    parent_record_id: note.parentRecordId,
    title: note.title,
    meeting_id: note.meetingId,
    content_plaintext: note.contentPlaintext,
    content_markdown: note.contentMarkdown,
    tags: note.tags.map((tag) => ({ ...tag })),
    created_by_actor: { type: note.createdBy.type, id: note.createdBy.id },
    created_at: note.createdAt.toISOString(),
  };
}
