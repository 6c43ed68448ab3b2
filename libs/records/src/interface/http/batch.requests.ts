import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsOptional } from 'class-validator';
import { BATCH_MAX_OPERATIONS } from '../../domain/batch-operations';

const RECORD_FIELDS: Record<string, SchemaObject> = {
  matching_attribute: { type: 'string', description: 'assert: slug or id of the unique attribute to match on' },
  record_id: { type: 'string', format: 'uuid', description: 'update, delete' },
  data: { type: 'object', properties: { values: { type: 'object', additionalProperties: true } }, description: 'create, assert, update: `{ values }` as the single endpoint takes it' },
};
const ENTRY_FIELDS: Record<string, SchemaObject> = {
  entry_id: { type: 'string', format: 'uuid', description: 'update, delete' },
  data: {
    type: 'object',
    properties: { parent_record_id: { type: 'string', format: 'uuid' }, parent_object: { type: 'string' }, entry_values: { type: 'object', additionalProperties: true } },
    description: 'create, assert (by parent record): `{ parent_record_id, parent_object, entry_values }`; update: `{ entry_values }`',
  },
};

const operation = (target: 'records' | 'entries'): SchemaObject => ({
  type: 'object',
  required: ['op'],
  properties: {
    op: { type: 'string', enum: ['create', 'assert', 'update', 'delete'], description: 'create (POST), assert (PUT), update (PATCH: multiselect values appended), delete (DELETE)' },
    ...(target === 'records' ? RECORD_FIELDS : ENTRY_FIELDS),
  },
});

function BatchOperations(target: 'records' | 'entries'): PropertyDecorator {
  return (proto, key) => {
    ApiProperty({
      type: 'array',
      minItems: 1,
      maxItems: BATCH_MAX_OPERATIONS,
      items: operation(target),
      description: `1 to ${BATCH_MAX_OPERATIONS} operations, applied in order. A malformed operation is refused alone (its item is a 400).`,
    })(proto, key);
    IsDefined()(proto, key);
    IsArray()(proto, key);
    ArrayMinSize(1, { message: 'operations must contain at least 1 operation' })(proto, key);
    ArrayMaxSize(BATCH_MAX_OPERATIONS, { message: `operations must contain at most ${BATCH_MAX_OPERATIONS} operations` })(proto, key);
  };
}

class BatchOptions {
  @ApiPropertyOptional({ default: false, description: 'true: all operations are applied or none (400 naming the first refused index); false: each item succeeds or fails alone' })
  @IsOptional()
  @IsBoolean()
  atomic?: boolean;
}

export class RecordBatchRequest extends BatchOptions {
  @BatchOperations('records') operations!: unknown[];
}

export class EntryBatchRequest extends BatchOptions {
  @BatchOperations('entries') operations!: unknown[];
}
