import { stripVTControlCharacters as stripColours } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lineFormatter, wantsReadableLogs } from '../../local/start/log-lines.ts';

const pinoLine = JSON.stringify({
  level: 30,
  time: Date.UTC(2026, 10, 23, 9, 5, 7),
  pid: 42,
  hostname: 'box',
  process: 'worker-deliver',
  queue: 'deliver',
  msg: 'batch delivered',
});

describe('npm start logs', () => {
  it('are readable at a terminal, JSON otherwise, and LOG_FORMAT=json or pretty decides either way', () => {
    expect(wantsReadableLogs({}, true)).toBe(true);
    expect(wantsReadableLogs({}, false)).toBe(false);
    expect(wantsReadableLogs({ LOG_FORMAT: 'json' }, true)).toBe(false);
    expect(wantsReadableLogs({ LOG_FORMAT: 'pretty' }, false)).toBe(true);
    expect(() => wantsReadableLogs({ LOG_FORMAT: 'text' }, true)).toThrow('LOG_FORMAT must be one of json, pretty');
  });

  it('forced readable on a non-terminal, turn a pino line into one line without colour codes', () => {
    const format = lineFormatter(wantsReadableLogs({ LOG_FORMAT: 'pretty' }, false), false);
    expect(format(pinoLine)).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: batch delivered \{"queue":"deliver"\}$/);
  });

  it('turn a pino line into one line with the level, message and fields, and leave other lines alone', () => {
    const readable = stripColours(lineFormatter(true)(pinoLine));
    expect(readable).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: batch delivered \{"queue":"deliver"\}$/);
    expect(readable).not.toContain('hostname');
    expect(lineFormatter(true)('sandbox listening on 4100')).toBe('sandbox listening on 4100');
    expect(lineFormatter(true)('{not json')).toBe('{not json');
    expect(lineFormatter(false)(pinoLine)).toBe(pinoLine);
  });
});
