import { ApiProperty } from '@nestjs/swagger';
import type { SqlTable } from '../../domain/sql-table';

export class SqlResultColumnResponse {
  @ApiProperty({ example: 'calls' }) name!: string;
  @ApiProperty({ example: 'bigint', description: 'PostgreSQL type of the result column (e.g. text, numeric, bigint, timestamptz, uuid[], jsonb)' }) type!: string;
}

export class SqlResultResponse {
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      'One object per row, keyed by column name (a repeated name gets a suffix: name_2, ...). bigint → number when exact; numeric → exact decimal string; timestamptz → "YYYY-MM-DDTHH:MM:SS.fffffffffZ"; json/jsonb → JSON; arrays → JSON arrays; other types → their PostgreSQL text form.',
    example: [{ direction: 'Outbound', calls: 12 }],
  })
  rows!: Array<Record<string, unknown>>;

  @ApiProperty({ type: [SqlResultColumnResponse], description: 'The result columns in order, with their types (a Workbase addition)' })
  columns!: SqlResultColumnResponse[];

  @ApiProperty({ description: 'True when the result had more rows than the row cap (default 10,000) and was cut off there (a Workbase addition)' })
  truncated!: boolean;
}

export class SqlResultEnvelope {
  @ApiProperty({ type: SqlResultResponse }) data!: SqlResultResponse;
}

export class SqlColumnResponse {
  @ApiProperty({ example: 'duration' }) name!: string;
  @ApiProperty({ example: 'numeric', description: 'PostgreSQL type in queries' }) data_type!: string;
  @ApiProperty({ type: String, nullable: true, example: 'number', description: 'Attribute type behind the column; null for the record columns' }) attribute_type!: string | null;
  @ApiProperty() is_multiselect!: boolean;
}

export class SqlTableResponse {
  @ApiProperty({ enum: ['objects', 'lists', 'activities'] }) schema!: string;
  @ApiProperty({ example: 'phone_calls' }) name!: string;
  @ApiProperty({ example: 'Phone calls', description: 'Plural noun (objects, activities) or name (lists)' }) title!: string;
  @ApiProperty({ type: [SqlColumnResponse] }) columns!: SqlColumnResponse[];
}

export class SqlLimitsResponse {
  @ApiProperty({ example: 30000 }) statement_timeout_ms!: number;
  @ApiProperty({ example: 10000 }) max_rows!: number;
}

export class SqlSchemaResponse {
  @ApiProperty({ type: [SqlTableResponse] }) tables!: SqlTableResponse[];
  @ApiProperty({ type: SqlLimitsResponse }) limits!: SqlLimitsResponse;
}

export class SqlSchemaEnvelope {
  @ApiProperty({ type: SqlSchemaResponse }) data!: SqlSchemaResponse;
}

export function toSqlTableResponse(table: SqlTable): SqlTableResponse {
  return {
    schema: table.schema,
    name: table.name,
    title: table.title,
    columns: table.columns.map((c) => ({ name: c.name, data_type: c.sqlType, attribute_type: c.attributeType, is_multiselect: c.isMultiselect })),
  };
}
