import { applyDecorators, type Type } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional } from '@nestjs/swagger';
import { Type as TransformTo } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { NoNulCharacters } from './reject-nul.pipe';
import { NamesAFieldToChange } from './validation.pipe';

/** The `data` of a wrapped request body (`{ "data": {...} }`): a required object, validated as `type`. */
export function BodyData(type: Type<object>): PropertyDecorator {
  return applyDecorators(ApiProperty({ type }), IsDefined(), IsObject(), ValidateNested(), TransformTo(() => type));
}

/** The `data` of a wrapped update body: a required object naming at least one field to change, validated as `type`. */
export function BodyChanges(type: Type<object>): PropertyDecorator {
  return applyDecorators(ApiProperty({ type }), IsDefined(), NamesAFieldToChange(), ValidateNested(), TransformTo(() => type));
}

/**
 * A required text field that names something (a slug or UUID, a name, an address): a non-empty string
 * without NUL characters. Applied bottom-up, as the stack `@NoNulCharacters() @IsString() @IsNotEmpty()`
 * is, so that class-validator checks (and reports the first failure) in that stack's order.
 */
export function NonEmptyText(doc?: ApiPropertyOptions): PropertyDecorator {
  return applyDecorators(IsNotEmpty(), IsString(), NoNulCharacters(), ApiProperty(doc));
}

/** `NonEmptyText`, optional: absent (or null) is no value. */
export function OptionalNonEmptyText(doc?: ApiPropertyOptions): PropertyDecorator {
  return applyDecorators(IsNotEmpty(), IsString(), IsOptional(), NoNulCharacters(), ApiPropertyOptional(doc));
}
