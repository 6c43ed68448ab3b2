import { ApiProperty } from '@nestjs/swagger';
import { WrappedData, WrappedList } from '@workbase/shared/http';
import type { Attribute } from '../../domain/attribute';
import type { SelectOption, Status } from '../../domain/choice';

class AttributeId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty({ description: 'The id of the object, list or activity (named object_id as in the reference API)' }) object_id!: string;
  @ApiProperty() attribute_id!: string;
}

export class AttributeResponse {
  @ApiProperty({ type: AttributeId }) id!: AttributeId;
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty() api_slug!: string;
  @ApiProperty({ example: 'currency' }) type!: string;
  @ApiProperty() is_system_attribute!: boolean;
  @ApiProperty() is_writable!: boolean;
  @ApiProperty() is_required!: boolean;
  @ApiProperty() is_unique!: boolean;
  @ApiProperty() is_multiselect!: boolean;
  @ApiProperty() is_default_value_enabled!: boolean;
  @ApiProperty() is_archived!: boolean;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) default_value!: unknown;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) relationship!: unknown;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { currency: { default_currency_code: 'USD', display_type: 'symbol' }, record_reference: { allowed_object_ids: null } } })
  config!: unknown;
}

export class AttributeEnvelope extends WrappedData(AttributeResponse) {}

export class AttributeListEnvelope extends WrappedList(AttributeResponse) {}

/** Attributes render their paired reverse attribute in `relationship`; the caller supplies it. */
export function toAttributeResponse(attribute: Attribute, reverse?: { attribute: Attribute; objectSlug: string } | null): AttributeResponse {
  return {
    id: { workspace_id: attribute.workspaceId, object_id: attribute.containerId, attribute_id: attribute.id },
    title: attribute.title,
    description: attribute.description,
    api_slug: attribute.slug,
    type: attribute.type,
    is_system_attribute: attribute.isSystem || attribute.isInherited,
    is_writable: attribute.isWritable,
    is_required: attribute.isRequired,
    is_unique: attribute.isUnique,
    is_multiselect: attribute.isMultiselect,
    is_default_value_enabled: attribute.defaultValue !== null,
    is_archived: attribute.isArchived,
    default_value: attribute.defaultValue,
    relationship: reverse
      ? {
          id: { workspace_id: reverse.attribute.workspaceId, object_id: reverse.attribute.containerId, attribute_id: reverse.attribute.id },
          object_slug: reverse.objectSlug,
          title: reverse.attribute.title,
          api_slug: reverse.attribute.slug,
          is_multiselect: reverse.attribute.isMultiselect,
        }
      : null,
    created_at: attribute.createdAt,
    config: {
      currency: attribute.config.currency ?? { default_currency_code: null, display_type: null },
      record_reference: attribute.config.record_reference ?? { allowed_object_ids: null },
    },
  };
}

/** An option's or status's attribute: `object_id` holds the attribute's object, list or activity, as the reference API writes it. */
class OptionAttributeId {
  @ApiProperty({ format: 'uuid' }) workspace_id!: string;
  @ApiProperty({ format: 'uuid' }) object_id!: string;
  @ApiProperty({ format: 'uuid' }) attribute_id!: string;
}

class SelectOptionId extends OptionAttributeId {
  @ApiProperty({ format: 'uuid' }) option_id!: string;
}

class StatusId extends OptionAttributeId {
  @ApiProperty({ format: 'uuid' }) status_id!: string;
}

class OptionFields {
  @ApiProperty() title!: string;
  @ApiProperty() is_archived!: boolean;
}

export class SelectOptionResponse extends OptionFields {
  @ApiProperty({ type: SelectOptionId }) id!: SelectOptionId;
}

export class SelectOptionEnvelope extends WrappedData(SelectOptionResponse) {}

export class SelectOptionListEnvelope extends WrappedList(SelectOptionResponse) {}

export function toOptionResponse(attribute: Attribute, option: SelectOption): SelectOptionResponse {
  return {
    id: { workspace_id: attribute.workspaceId, object_id: attribute.containerId, attribute_id: attribute.id, option_id: option.id },
    title: option.title,
    is_archived: option.isArchived,
  };
}

export class StatusResponse extends OptionFields {
  @ApiProperty({ type: StatusId }) id!: StatusId;
  @ApiProperty() celebration_enabled!: boolean;
  @ApiProperty({ type: String, nullable: true, example: 'P14D' }) target_time_in_status!: string | null;
}

export class StatusEnvelope extends WrappedData(StatusResponse) {}

export class StatusListEnvelope extends WrappedList(StatusResponse) {}

export function toStatusResponse(attribute: Attribute, status: Status): StatusResponse {
  return {
    id: { workspace_id: attribute.workspaceId, object_id: attribute.containerId, attribute_id: attribute.id, status_id: status.id },
    title: status.title,
    is_archived: status.isArchived,
    celebration_enabled: status.celebrationEnabled,
    target_time_in_status: status.targetTimeInStatus,
  };
}
