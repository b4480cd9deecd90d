import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../config';
import { reportWindow, type WindowOptions } from '../../../lib/report/window';

const NOW = new Date('2026-11-20T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'window-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('report window', () => {
  test('--start/--end at one-minute points for a recent window', () => {
    const w = reportWindow({ start: '2026-11-20T10:00:00Z', end: '2026-11-20T10:05:00+00:00' }, 'test10', NOW);
    expect(w).toEqual({ start: new Date('2026-11-20T10:00:00Z'), end: new Date('2026-11-20T10:05:00Z'), periodSeconds: 60, workflows: undefined, note: undefined });
  });

  test('--last ends now', () => {
    const w = reportWindow({ last: '2h' }, 'test10', NOW);
    expect(w.start).toEqual(new Date('2026-11-20T10:00:00Z'));
    expect(w.end).toEqual(NOW);
  });

  test('--run reads the window and workflow count bench run recorded', () => {
    const run = file('run.json', JSON.stringify({ scenario: 'temporal-150wps', start: '2026-11-20T10:00:00Z', end: '2026-11-20T10:05:00Z', workflowsCompleted: 41052 }));
    const w = reportWindow({ run }, 'temporal-150wps', NOW);
    expect(w.workflows).toBe(41052);
    expect(w.periodSeconds).toBe(60);
  });

  test('older windows get the finest period CloudWatch still keeps, and say so', () => {
    const w = reportWindow({ start: '2026-10-01T10:00:00Z', end: '2026-10-01T12:00:00Z' }, 'test10', NOW);
    expect(w.periodSeconds).toBe(300);
    expect(w.note).toBe('the window is 50 days old, so points are 5-minute aggregates (CloudWatch\'s finest for that age)');
    expect(reportWindow({ start: '2026-03-01T10:00:00Z', end: '2026-03-01T12:00:00Z' }, 'test10', NOW).periodSeconds).toBe(3600);
  });

  test('--period may be coarser than the finest', () => {
    expect(reportWindow({ last: '24h', period: '300' }, 'test10', NOW).periodSeconds).toBe(300);
  });

  test('--last takes the Go durations the rest of config uses', () => {
    const span = (last: string) => {
      const w = reportWindow({ last }, 'test10', NOW);
      return w.end.getTime() - w.start.getTime();
    };
    expect(span('90s')).toBe(90_000);
    expect(span('30m')).toBe(1_800_000);
    expect(span('24h')).toBe(86_400_000);
  });

  // Each mistake: one ConfigError line that names the bad value and what is valid.
  const BAD: [string, WindowOptions, RegExp][] = [
    ['no window', {}, /^no time window given; valid: --start <time> --end <time>, --last <duration> or --run <file>$/],
    ['two ways at once', { last: '1h', start: '2026-11-20T10:00:00Z' }, /^--start\/--end and --last cannot be combined; valid: /],
    ['start without end', { start: '2026-11-20T10:00:00Z' }, /^--start and --end go together/],
    ['time without a zone', { start: '2026-11-20T10:00:00', end: '2026-11-20T11:00:00Z' }, /^--start "2026-11-20T10:00:00" is not a time \(valid: ISO 8601 with a zone/],
    ['end before start', { start: '2026-11-20T11:00:00Z', end: '2026-11-20T10:00:00Z' }, /^the window ends \(2026-11-20T10:00:00.000Z\) before it starts \(2026-11-20T11:00:00.000Z\)/],
    ['end in the future', { start: '2026-11-20T11:00:00Z', end: '2026-11-21T10:00:00Z' }, /^--end 2026-11-21T10:00:00.000Z is in the future; valid: a time up to now$/],
    ['bad duration', { last: '5 minutes' }, /^--last "5 minutes" is not a duration \(valid: a whole number above 0 with s, m or h/],
    ['zero duration', { last: '0m' }, /^--last "0m" is not a duration/],
    ['period not a multiple of 60', { last: '1h', period: '90' }, /^--period "90" is not valid \(valid: seconds, a multiple of 60\)$/],
    ['period finer than kept', { start: '2026-10-01T10:00:00Z', end: '2026-10-01T12:00:00Z', period: '60' }, /^--period 60 is finer than CloudWatch keeps for a window 50 days old \(valid: 300 or a multiple of it\)$/],
    ['window older than retention', { start: '2024-01-01T10:00:00Z', end: '2024-01-01T12:00:00Z' }, /^the window starts \d+ days ago; CloudWatch keeps metrics for 455 days/],
    ['workflows not a count', { last: '1h', workflows: '4.5e4' }, /^--workflows "4.5e4" is not valid \(valid: a whole number above 0\)$/],
    ['run file missing', { run: join(dir, 'nope.json') }, /^--run .*nope.json: ENOENT.* \(valid: the JSON file that bench run writes\)$/],
    ['run file not JSON', { run: file('bad.json', '{') }, /^--run .*bad.json: .*JSON.* \(valid: the JSON file that bench run writes\)$/],
    ['run file without an end', { run: file('noend.json', JSON.stringify({ scenario: 'test10', start: '2026-11-20T10:00:00Z' })) }, /^--run .*noend.json: end: .* \(valid: \{scenario, start, end, workflowsCompleted\?\}\)$/],
    ['run of another scenario', { run: file('other.json', JSON.stringify({ scenario: 'test11', start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' })) }, /^--run .*other.json records scenario "test11", not "test10"/],
  ];
  test.each(BAD)('%s', (_name, options, message) => {
    let error: unknown;
    try {
      reportWindow(options, 'test10', NOW);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});
