/**
 * A `POST /v2/meetings` body: "Weekly sync", timed from 15:00 to 16:00 UTC on 2 March 2026, no description and
 * no participants; the fields in `data` replace these.
 */
export function meetingBody(data: Record<string, unknown> = {}): { data: Record<string, unknown> } {
  return {
    data: {
      title: 'Weekly sync',
      description: '',
      is_all_day: false,
      start: { datetime: '2026-03-02T15:00:00Z', timezone: 'UTC' },
      end: { datetime: '2026-03-02T16:00:00Z', timezone: 'UTC' },
      participants: [],
      ...data,
    },
  };
}
