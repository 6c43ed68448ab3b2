import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoNestLogger, resolveLogFormat } from './logging';

describe('log format', () => {
  const tty = process.stdout.isTTY;
  afterEach(() => {
    process.stdout.isTTY = tty;
  });

  it('follows LOG_FORMAT when set, else pretty on a terminal and JSON lines elsewhere', () => {
    process.stdout.isTTY = true;
    expect(resolveLogFormat(null)).toBe('pretty');
    expect(resolveLogFormat('json')).toBe('json');
    process.stdout.isTTY = false;
    expect(resolveLogFormat(null)).toBe('json');
    expect(resolveLogFormat('pretty')).toBe('pretty');
  });
});

describe('PinoNestLogger', () => {
  it("sends Nest's start-up chatter (modules, routes) to debug and keeps everything else at its level", () => {
    const lines: Array<{ level: number; msg: string; context?: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
        done();
      },
    });
    const nest = new PinoNestLogger(pino({ level: 'info' }, sink));
    nest.log('Mapped {/v2/objects, GET} route', 'RouterExplorer');
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('webhook worker started', 'WebhookWorker');
    nest.warn('queue: connection lost', 'WebhookWorker');
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [30, 'webhook worker started'],
      [40, 'queue: connection lost'],
    ]);
  });
});
