import { checkTranscript, rawTranscript, type TranscriptSegment } from './call-recording';

const segment = (overrides: Partial<TranscriptSegment> = {}): TranscriptSegment => ({
  speech: 'Hello',
  startTime: 0,
  endTime: 1.5,
  speaker: { name: 'Ada', emailAddress: null },
  ...overrides,
});

describe('call transcripts', () => {
  it('accepts ordered, bounded times and refuses the rest naming the segment field', () => {
    expect(() => checkTranscript([segment(), segment({ startTime: 1.5, endTime: 1.5 })])).not.toThrow();
    expect(() => checkTranscript([segment(), segment({ startTime: 3, endTime: 2 })])).toThrow(/^data\.transcript\[1\]\.end_time: must not be before start_time/);
    expect(() => checkTranscript([segment({ startTime: -1 })])).toThrow(/^data\.transcript\[0\]\.start_time:/);
    expect(() => checkTranscript([segment({ endTime: 90_000 })])).toThrow(/^data\.transcript\[0\]\.end_time:/);
    expect(() => checkTranscript([segment({ speaker: { name: ' ', emailAddress: null } })])).toThrow(/^data\.transcript\[0\]\.speaker\.name:/);
  });

  it('renders the raw transcript speaker by speaker', () => {
    expect(rawTranscript([segment(), segment({ speech: 'Hi Ada', speaker: { name: 'Grace', emailAddress: 'g@example.com' } })])).toBe('Ada: Hello\nGrace: Hi Ada');
  });
});
