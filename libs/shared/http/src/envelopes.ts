import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** The base of a `{ "data": X }` response class: `export class NoteEnvelope extends WrappedData(NoteResponse) {}`. */
export function WrappedData<T>(type: Type<T>): Type<{ data: T }> {
  class Wrapped {
    @ApiProperty({ type }) data!: T;
  }
  return Wrapped;
}

/** The base of a `{ "data": [X, ...] }` response class: `export class NoteListEnvelope extends WrappedList(NoteResponse) {}`. */
export function WrappedList<T>(type: Type<T>): Type<{ data: T[] }> {
  class Wrapped {
    @ApiProperty({ type: [type] }) data!: T[];
  }
  return Wrapped;
}

/** The `{}` a delete answers. */
export class EmptyBody {}
