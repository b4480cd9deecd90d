import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportWindow, wholeInRun } from '../../../../lib/commands/report/window';
import { tempDir } from '../../../support/temp-dir';

const NOW = new Date('2026-11-20T12:00:00Z');
const dir = tempDir('window-');
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('report window', () => {
  test('--start/--end at one-minute points for a recent window', () => {
    const w = reportWindow({ start: '2026-11-20T10:00:00Z', end: '2026-11-20T10:05:00+00:00' }, 'test10', NOW);
    expect(w).toEqual({
      start: new Date('2026-11-20T10:00:00Z'),
      end: new Date('2026-11-20T10:05:00Z'),
      periodSeconds: 60,
      workflows: undefined,
      note: undefined,
    });
  });

  test('--last as Go and the report write a span: 1h30m', () => {
    const w = reportWindow({ last: '1h30m' }, 'test10', NOW);
    expect(w.start).toEqual(new Date('2026-11-20T10:30:00Z'));
  });

  test('--last ends now', () => {
    const w = reportWindow({ last: '2h' }, 'test10', NOW);
    expect(w.start).toEqual(new Date('2026-11-20T10:00:00Z'));
    expect(w.end).toEqual(NOW);
  });

  test('--run reads the window and workflow count bench run recorded', () => {
    const run = file(
      'run.json',
      JSON.stringify({ scenario: 'temporal-150wps', start: '2026-11-20T10:00:00Z', end: '2026-11-20T10:05:00Z', workflowsCompleted: 41052 }),
    );
    const w = reportWindow({ run }, 'temporal-150wps', NOW);
    expect(w.workflows).toBe(41052);
    expect(w.periodSeconds).toBe(60);
  });

  test("--run carries the run's own figures: rate, percentiles and the store round trip the probe measured", () => {
    const record = {
      scenario: 'temporal-150wps',
      start: '2026-11-20T10:00:00Z',
      end: '2026-11-20T10:05:00Z',
      workflowsCompleted: 41052,
      result: { results: { actualRate: 136.74, latency: { p50: 197, p95: 220, p99: 259, max: 594 } } },
      storeRoundTrip: { host: 'h', queries: 100, connectMs: 41.3, medianMs: 0.92, p99Ms: 1.87, minMs: 0.71, maxMs: 2.4 },
    };
    const w = reportWindow({ run: file('run-probe.json', JSON.stringify(record)) }, 'temporal-150wps', NOW);
    expect(w.benchmark).toEqual({
      workflowsPerSecond: 136.74,
      latencyMs: { p50: 197, p95: 220, p99: 259, max: 594 },
      storeRoundTripMs: { median: 0.92, p99: 1.87 },
    });
    const older = reportWindow({ run: file('run-old.json', JSON.stringify({ ...record, storeRoundTrip: undefined })) }, 'temporal-150wps', NOW);
    expect(older.benchmark?.storeRoundTripMs).toBeNull();
  });

  test("--run carries the generator's second-by-second series from its own start; a series that does not parse is refused", () => {
    const series = { intervalSeconds: 1, started: [10, 10, 0], startErrors: [0, 2, 0], completed: [9, 0, 11], latencyP99Ms: [80, 0, 4100] };
    const record = {
      scenario: 'temporal-150wps',
      start: '2026-11-20T10:00:00Z',
      end: '2026-11-20T10:05:00Z',
      result: { results: { latency: { p50: 1, p95: 2, p99: 3 } }, window: { start: '2026-11-20T10:00:01.5Z' }, series },
    };
    const w = reportWindow({ run: file('run-series.json', JSON.stringify(record)) }, 'temporal-150wps', NOW);
    expect(w.generatorSeries).toEqual({ ...series, start: new Date('2026-11-20T10:00:01.5Z') });
    const bad = { ...record, result: { ...record.result, series: { ...series, completed: [1, -1] } } };
    expect(() => reportWindow({ run: file('run-bad-series.json', JSON.stringify(bad)) }, 'temporal-150wps', NOW)).toThrow(
      /--run .*result\.series\.completed\.1/,
    );
  });

  test('older windows get the finest period CloudWatch still keeps, and say so', () => {
    const w = reportWindow({ start: '2026-10-01T10:00:00Z', end: '2026-10-01T12:00:00Z' }, 'test10', NOW);
    expect(w.periodSeconds).toBe(300);
    expect(w.note).toBe("the window is 50 days old, so points are 5-minute aggregates (CloudWatch's finest for that age)");
    expect(reportWindow({ start: '2026-03-01T10:00:00Z', end: '2026-03-01T12:00:00Z' }, 'test10', NOW).periodSeconds).toBe(3600);
  });

  test('--period may be coarser than the finest', () => {
    expect(reportWindow({ last: '24h', period: '5m' }, 'test10', NOW).periodSeconds).toBe(300);
  });

  test('--last takes the Go durations the rest of config uses', () => {
    const span = (last: string) => {
      const w = reportWindow({ last }, 'test10', NOW);
      return w.end.getTime() - w.start.getTime();
    };
    expect(span('120s')).toBe(120_000);
    expect(span('30m')).toBe(1_800_000);
    expect(span('24h')).toBe(86_400_000);
  });

  test('--last ends at the last whole minute: the minute under way has only part of its data', () => {
    const w = reportWindow({ last: '30m' }, 'test10', new Date('2026-11-20T12:00:42.5Z'));
    expect(w.end).toEqual(new Date('2026-11-20T12:00:00Z'));
    expect(w.start).toEqual(new Date('2026-11-20T11:30:00Z'));
  });

  test('a run is read as the whole points that cover it; averages come from the points wholly inside it', () => {
    const run = file(
      'run-unaligned.json',
      JSON.stringify({ scenario: 'temporal-150wps', start: '2026-11-20T10:00:03Z', end: '2026-11-20T10:05:11Z', workflowsCompleted: 41052 }),
    );
    const w = reportWindow({ run }, 'temporal-150wps', NOW);
    expect([w.start, w.end]).toEqual([new Date('2026-11-20T10:00:00Z'), new Date('2026-11-20T10:06:00Z')]);
    expect(w.run).toEqual({ start: new Date('2026-11-20T10:00:03Z'), end: new Date('2026-11-20T10:05:11Z') });
    expect(w.note).toBe(
      'the run (2026-11-20T10:00:03Z to 2026-11-20T10:05:11Z) is read as the 6 1-minute points from 2026-11-20T10:00:00Z to 2026-11-20T10:06:00Z that cover it: totals and peaks over all 6, averages over the 4 wholly inside the run',
    );
    const minute = (m: number) => new Date(`2026-11-20T10:0${m}:00Z`).getTime();
    expect([0, 1, 2, 3, 4, 5].filter((m) => wholeInRun(w, minute(m)))).toEqual([1, 2, 3, 4]);
    // --period 5m: 10:00-10:05 starts before the run and 10:05-10:10 ends after it; no point is whole.
    expect(() => reportWindow({ run, period: '5m' }, 'temporal-150wps', NOW)).toThrow(/the run \(5m8s\) holds no whole one of its 5-minute points/);
    // A run on whole minutes is its own window, without a note.
    const aligned = reportWindow(
      { run: file('run-aligned.json', JSON.stringify({ scenario: 'temporal-150wps', start: '2026-11-20T10:00:00Z', end: '2026-11-20T10:05:00Z' })) },
      'temporal-150wps',
      NOW,
    );
    expect([aligned.start, aligned.end, aligned.note]).toEqual([new Date('2026-11-20T10:00:00Z'), new Date('2026-11-20T10:05:00Z'), undefined]);
  });

  test('a window that is not whole points is refused, naming the times that would be (1-minute and 5-minute grids)', () => {
    expect(() => reportWindow({ start: '2026-11-20T10:00:30Z', end: '2026-11-20T10:30:00Z' }, 'test10', NOW)).toThrow(
      '--start 2026-11-20T10:00:30Z does not start on a whole 1-minute point, where CloudWatch starts them: the first point would take in time before the window (valid: a start of 2026-11-20T10:00:00Z or 2026-11-20T10:01:00Z)',
    );
    expect(() => reportWindow({ start: '2026-11-20T10:00:00Z', end: '2026-11-20T10:30:30Z' }, 'test10', NOW)).toThrow(
      'the window (30m30s) is not a whole number of 1-minute points: its last point would reach past --end (valid: an --end of 2026-11-20T10:30:00Z or 2026-11-20T10:31:00Z)',
    );
    expect(() => reportWindow({ start: '2026-10-01T10:02:00Z', end: '2026-10-01T12:00:00Z' }, 'test10', NOW)).toThrow(
      /does not start on a whole 5-minute point.*2026-10-01T10:00:00Z or 2026-10-01T10:05:00Z/,
    );
    // Older than 63 days: hourly points, so half an hour cannot be reported.
    expect(() => reportWindow({ start: '2026-01-20T08:00:00Z', end: '2026-01-20T08:30:00Z' }, 'test10', NOW)).toThrow(
      'the window (30m) is not a whole number of 1-hour points: its last point would reach past --end (valid: an --end of 2026-01-20T09:00:00Z)',
    );
    expect(() => reportWindow({ last: '90s' }, 'test10', NOW)).toThrow(
      '--last 90s is not a whole number of 1-minute points (valid: a multiple of 1m, e.g. 1m or 2m)',
    );
  });
  // Its mistakes, one line each through the command's error path: test/bad-input.test.ts.
});
