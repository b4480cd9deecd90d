import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportWindow } from '../../../../lib/commands/report/window';

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
    expect(reportWindow({ last: '24h', period: '5m' }, 'test10', NOW).periodSeconds).toBe(300);
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
  // Its mistakes, one line each through the command's error path: test/bad-input.test.ts.
});
