import { checkTaskContent, parseDeadline, TASK_CONTENT_MAX_LENGTH } from './task';

describe('task rules', () => {
  it('accepts content up to 2000 characters, counting code points, and normalises line breaks', () => {
    expect(checkTaskContent('Call back\r\nabout pricing')).toBe('Call back\nabout pricing');
    expect(checkTaskContent('😀'.repeat(TASK_CONTENT_MAX_LENGTH))).toHaveLength(TASK_CONTENT_MAX_LENGTH * 2);
    expect(() => checkTaskContent('x'.repeat(TASK_CONTENT_MAX_LENGTH + 1))).toThrow(/data\.content: must be at most 2000 characters \(got 2001\)/);
    expect(() => checkTaskContent('   ')).toThrow(/data\.content: must not be empty/);
  });

  it('parses deadlines with an offset and refuses anything else, naming the field', () => {
    expect(parseDeadline('data.deadline_at', '2026-03-01T17:00:00.000000000Z').toISOString()).toBe('2026-03-01T17:00:00.000Z');
    expect(parseDeadline('data.deadline_at', '2026-03-01T17:00:00+02:00').toISOString()).toBe('2026-03-01T15:00:00.000Z');
    for (const bad of ['2026-03-01', '2026-02-30T10:00:00Z', '2026-03-01T17:00:00', 'tomorrow', '2026-03-01T25:00:00Z']) {
      expect(() => parseDeadline('data.deadline_at', bad)).toThrow(/^data\.deadline_at: /);
    }
  });
});
