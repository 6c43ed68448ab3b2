import { applyDecorators, type Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type as TransformTo } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { NamesAFieldToChange } from './validation.pipe';

/** The `data` of a wrapped request body (`{ "data": {...} }`): a required object, validated as `type`. */
export function BodyData(type: Type<object>): PropertyDecorator {
  return applyDecorators(ApiProperty({ type }), IsDefined(), IsObject(), ValidateNested(), TransformTo(() => type));
}

/** The `data` of a wrapped update body: a required object naming at least one field to change, validated as `type`. */
export function BodyChanges(type: Type<object>): PropertyDecorator {
  return applyDecorators(ApiProperty({ type }), IsDefined(), NamesAFieldToChange(), ValidateNested(), TransformTo(() => type));
}
