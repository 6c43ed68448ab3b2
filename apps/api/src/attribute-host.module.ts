import { Global, Module } from '@nestjs/common';
import { ATTRIBUTE_HOST } from '@workbase/schema';
import { RecordAttributeHost, RecordsModule } from '@workbase/records';

/**
 * The attribute catalogue asks the record engine for objects, write lookups and unique-value
 * claims (ATTRIBUTE_HOST). Records depend on attributes, so attributes cannot import the engine:
 * the two meet here, as the record deletion listeners do.
 */
@Global()
@Module({
  imports: [RecordsModule],
  providers: [{ provide: ATTRIBUTE_HOST, useExisting: RecordAttributeHost }],
  exports: [ATTRIBUTE_HOST],
})
export class AttributeHostModule {}
