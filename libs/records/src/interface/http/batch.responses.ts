import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ApiErrorResponse, errorBodyOf } from '@workbase/shared/http';
import type { BatchItemResult } from '../../application/write-batch.use-case';
import type { RecordView } from '../../application/record-reader';
import { EntryResponse } from './entry.responses';
import { RecordResponse } from './record.responses';

const deleted = { type: 'object', additionalProperties: false, description: 'a delete: `{}`' } as const;

@ApiExtraModels(RecordResponse)
export class RecordBatchItem {
  @ApiProperty({ description: 'Position of the operation in the request' }) index!: number;
  @ApiProperty({ enum: [200, 400, 404, 409], description: 'What the single endpoint would have answered' }) status!: number;
  @ApiPropertyOptional({ oneOf: [{ $ref: getSchemaPath(RecordResponse) }, deleted], description: 'On success: the record as the batch left it' })
  data?: RecordResponse | Record<string, never>;
  @ApiPropertyOptional({ type: ApiErrorResponse, description: 'On failure: the error body the single endpoint would have sent' })
  error?: ApiErrorResponse;
}

@ApiExtraModels(EntryResponse)
export class EntryBatchItem {
  @ApiProperty({ description: 'Position of the operation in the request' }) index!: number;
  @ApiProperty({ enum: [200, 400, 404, 409], description: 'What the single endpoint would have answered' }) status!: number;
  @ApiPropertyOptional({ oneOf: [{ $ref: getSchemaPath(EntryResponse) }, deleted], description: 'On success: the entry as the batch left it' })
  data?: EntryResponse | Record<string, never>;
  @ApiPropertyOptional({ type: ApiErrorResponse, description: 'On failure: the error body the single endpoint would have sent' })
  error?: ApiErrorResponse;
}

export class RecordBatchEnvelope {
  @ApiProperty({ type: [RecordBatchItem] }) data!: RecordBatchItem[];
}

export class EntryBatchEnvelope {
  @ApiProperty({ type: [EntryBatchItem] }) data!: EntryBatchItem[];
}

/** Each item as its single endpoint would answer it: `data` (`{}` for a delete) or `error`, with that status. */
export function toBatchItems<T>(results: readonly BatchItemResult[], present: (view: RecordView) => T): Array<{ index: number; status: number; data?: T | Record<string, never>; error?: ApiErrorResponse }> {
  return results.map((result) => {
    if (!result.ok) {
      const error = errorBodyOf(result.error);
      return { index: result.index, status: error.status_code, error };
    }
    return { index: result.index, status: 200, data: result.view ? present(result.view) : {} };
  });
}
