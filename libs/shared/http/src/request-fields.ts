import { applyDecorators, type Type } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional } from '@nestjs/swagger';
import { Type as TransformTo } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator';
import { NoNulCharacters } from './reject-nul.pipe';
import { NamesAFieldToChange } from './validation.pipe';

/**
 * Property decorators applied as the same stack written above a property would be: the last one
 * first. class-validator then checks in that stack's order, so the first failure it reports (and its
 * message) is the stack's.
 */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

/** The `data` of a wrapped request body (`{ "data": {...} }`): a required object, validated as `type`. */
export function BodyData(type: Type<object>): PropertyDecorator {
  return stacked(ApiProperty({ type }), IsDefined(), IsObject(), ValidateNested(), TransformTo(() => type));
}

/** The `data` of a wrapped update body: a required object naming at least one field to change, validated as `type`. */
export function BodyChanges(type: Type<object>): PropertyDecorator {
  return stacked(ApiProperty({ type }), IsDefined(), NamesAFieldToChange(), ValidateNested(), TransformTo(() => type));
}

/** A required text field that names something (a slug or UUID, a name, an address): a non-empty string without NUL characters. */
export function NonEmptyText(doc?: ApiPropertyOptions): PropertyDecorator {
  return stacked(ApiProperty(doc), NoNulCharacters(), IsString(), IsNotEmpty());
}

/** `NonEmptyText`, optional: absent (or null) is no value. */
export function OptionalNonEmptyText(doc?: ApiPropertyOptions): PropertyDecorator {
  return stacked(ApiPropertyOptional(doc), NoNulCharacters(), IsOptional(), IsString(), IsNotEmpty());
}

/** A required UUID field. */
export function Uuid(description?: string): PropertyDecorator {
  return stacked(ApiProperty(description === undefined ? { format: 'uuid' } : { format: 'uuid', description }), IsUUID());
}

/** An optional UUID field. */
export function OptionalUuid(description: string): PropertyDecorator {
  return stacked(ApiPropertyOptional({ format: 'uuid', description }), IsOptional(), IsUUID());
}

/** An object validated as `type`; the decorators above it say whether it may be absent. */
export function NestedObject(type: Type<object>): PropertyDecorator {
  return stacked(IsObject(), ValidateNested(), TransformTo(() => type));
}

/** An array of at most `max` objects, each validated as `type`; the decorators above it say whether it may be absent. */
export function NestedList(type: Type<object>, max: number): PropertyDecorator {
  return stacked(IsArray(), ArrayMaxSize(max), ValidateNested({ each: true }), TransformTo(() => type));
}
