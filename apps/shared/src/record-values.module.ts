import { Global, Module } from '@nestjs/common';
import { RecordsModule, RecordValuesAdapter } from '@workbase/records';
import { RECORD_VALUES } from '@workbase/schema';

/**
 * The schema asks the record engine for write lookups and unique-value claims (RECORD_VALUES)
 * when an attribute's default or uniqueness changes. Records depend on the schema, so the schema
 * cannot import the engine: the two meet here, as the record deletion listeners do.
 */
@Global()
@Module({
  imports: [RecordsModule],
  providers: [{ provide: RECORD_VALUES, useExisting: RecordValuesAdapter }],
  exports: [RECORD_VALUES],
})
export class RecordValuesModule {}
