import { fixedRelation, FIXED_RELATIONS, isFixedSchema } from './fixed-relations';

describe('fixed relations', () => {
  it('offers meetings.call_transcripts, bound to the workspace in every table it reads', () => {
    const relation = fixedRelation('meetings', 'call_transcripts');
    expect(relation?.scopes).toEqual(['meeting:read', 'call_recording:read']);
    const sql = relation!.sql((name) => `"app"."${name}"`, "'w'::uuid");
    for (const table of ['call_transcript_segments', 'call_recordings', 'meetings']) expect(sql).toContain(`"app"."${table}"`);
    expect(sql.match(/workspace_id = 'w'::uuid/g)).toHaveLength(3);
    expect(sql).toMatch(/OFFSET 0$/);
    const selected = sql.slice('SELECT '.length, sql.indexOf(' FROM ')).split(',').map((part) => part.trim().split(/\s+/).at(-1)!.replace(/^\w+\./, ''));
    expect(selected).toEqual(relation!.columns.map((c) => c.name));
  });

  it('knows no other table of the schema, and no other schema', () => {
    expect(fixedRelation('meetings', 'meetings')).toBeUndefined();
    expect(isFixedSchema('meetings')).toBe(true);
    expect(isFixedSchema('objects')).toBe(false);
    expect(FIXED_RELATIONS.every((r) => isFixedSchema(r.schema))).toBe(true);
  });
});
