import { ApiProperty } from '@nestjs/swagger';
import { ACTOR_TYPES, type ActorType } from '@workbase/shared/kernel';

/**
 * Who did something, as the reference API writes it (`created_by_actor`, a comment's author).
 * One class for every context: Swagger names a schema after its class, so same-named copies
 * would collapse into whichever it met first.
 */
export class ActorResponse {
  @ApiProperty({ enum: ACTOR_TYPES, example: 'api-token' }) type!: ActorType;
  @ApiProperty({ type: String, nullable: true, description: 'null for the system' }) id!: string | null;
}
