import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsObject, IsOptional, IsString } from 'class-validator';
import { BodyData } from '@workbase/shared/http';

export class EntryCreateData {
  @ApiProperty({ format: 'uuid' }) @IsString() @IsNotEmpty() parent_record_id!: string;
  @ApiProperty({ example: 'companies' }) @IsString() @IsNotEmpty() parent_object!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'List attribute values keyed by slug or id' })
  @IsOptional()
  @IsObject()
  entry_values?: Record<string, unknown>;
}

export class EntryCreateRequest {
  @BodyData(EntryCreateData) data!: EntryCreateData;
}

export class EntryValuesData {
  @ApiProperty({ type: 'object', additionalProperties: true }) @IsDefined() @IsObject() entry_values!: Record<string, unknown>;
}

export class EntryUpdateRequest {
  @BodyData(EntryValuesData) data!: EntryValuesData;
}
