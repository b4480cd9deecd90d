import { Resvg } from '@resvg/resvg-js';
import { type FolioScenario, type TemporalScenario, resolveScenario } from '../../../../config';
import { catalogFor } from '../../../../lib/families';
import { NO_DATA_TEXT, renderCharts, renderGeneratorCharts } from '../../../../lib/commands/report/charts';
import type { Points } from '../../../../lib/commands/report/fetch';

/*
 * The report's charts rendered to PNG (resvg, a well-kept SVG rasterizer) and held to what a
 * reader needs, stated as expectations rather than pixel snapshots.
 */

const temporal = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const folio = resolveScenario({ scenario: 'test10' }) as FolioScenario;
const minutes = (start: Date, n: number) => Array.from({ length: n }, (_, i) => start.getTime() + i * 60_000);

function png(svg: string) {
  const image = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render();
  // The getter copies the buffer: read it once.
  const pixels = image.pixels;
  const px = (x: number, y: number) => {
    const i = (y * image.width + x) * 4;
    return [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]];
  };
  return { width: image.width, height: image.height, px };
}

const near = (a: number[], hex: string) => {
  const b = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return a[3] === 255 && b.every((c, i) => Math.abs(c - a[i]) <= 40);
};

/** Legend labels in one row, by their SVG position: [x where the text starts, text]. */
function legend(svg: string): Array<[number, string]> {
  const items = [...svg.matchAll(/<text[^>]*x="30"[^>]*transform="translate\(([\d.]+) ([\d.]+)\)"[^>]*>([^<]*)<\/text>/g)];
  return items.map((m) => [Number(m[1]) + 30, m[3]]);
}

describe('a FOLIO phase at its ceiling, the window across midnight', () => {
  const start = new Date('2026-01-21T23:40:00Z');
  const t = minutes(start, 40);
  // The Serverless cluster sits exactly on its 32 ACU maximum all the time.
  const points = new Map<string, Points>([
    ['acu', { t, v: t.map(() => 32) }],
    ['cpuPrimary', { t, v: t.map((_, i) => 50 + (i % 10)) }],
  ]);
  const charts = renderCharts(catalogFor(folio), points, { start, end: new Date('2026-01-22T00:20:00Z'), periodSeconds: 60 }, 'test10');
  const acu = charts.find((c) => c.file === 'acu.svg')!;

  test('every chart has an opaque white background', () => {
    for (const c of charts) {
      const p = png(c.svg);
      for (const [x, y] of [
        [0, 0],
        [p.width - 1, p.height - 1],
      ])
        expect(p.px(x, y)).toEqual([255, 255, 255, 255]);
    }
  });

  test('the max line stays visible where the series sits on it, and is labelled inside the plot', () => {
    const p = png(acu.svg);
    const rows = Array.from({ length: p.height }, (_, y) => Array.from({ length: p.width }, (_, x) => near(p.px(x, y), '#c23531')).filter(Boolean).length);
    // A dashed line across the plot: a row with hundreds of limit-coloured pixels.
    expect(Math.max(...rows)).toBeGreaterThan(300);
    expect(acu.svg).toMatch(/transform="translate\(([\d.]+) [\d.]+\)" fill="#c23531">max 32 ACU<\/text>/);
    const x = Number(/translate\(([\d.]+) [\d.]+\)" fill="#c23531">max 32 ACU/.exec(acu.svg)![1]);
    expect(x).toBeLessThan(960 - 40);
  });

  test('time is UTC, with the date on each label since the window crosses midnight', () => {
    expect(acu.svg).toContain('>UTC</text>');
    expect(acu.svg).toContain('>01-22 00:00</text>');
    expect(acu.svg).toMatch(/>01-21 23:\d\d<\/text>/);
  });

  test('legend entries do not overlap', () => {
    for (const c of charts) {
      const items = legend(c.svg).sort((a, b) => a[0] - b[0]);
      // DejaVu Sans at 12 px is at most about 7.5 px a character; the next entry's icon starts 30 px before its text.
      items.slice(1).forEach(([x], i) => expect(x - 30).toBeGreaterThan(items[i][0] + items[i][1].length * 7.5));
    }
  });

  test('a chart without a datapoint says so instead of drawing an empty plot', () => {
    const empty = charts.find((c) => c.file === 'connections.svg')!;
    expect(empty.svg).toContain(`>${NO_DATA_TEXT}</text>`);
    const p = png(empty.svg);
    let ink = 0;
    for (let y = p.height / 2 - 30; y < p.height / 2 + 30; y++) for (let x = 380; x < 580; x++) if (p.px(x, y)[0] < 160) ink++;
    expect(ink).toBeGreaterThan(50);
    expect(acu.svg).not.toContain(NO_DATA_TEXT);
  });
});

test("Temporal: a latency chart of DSQL's commit latency, with the benchmark's P50/P95/P99 from the run record", () => {
  const start = new Date('2026-01-21T10:00:00Z');
  const t = minutes(start, 5);
  const charts = renderCharts(
    catalogFor(temporal, { dsqlClusterId: 'x' }),
    new Map([['commitLatency', { t, v: [3, 4, 3, 5, 4] }]]),
    {
      start,
      end: new Date('2026-01-21T10:05:00Z'),
      periodSeconds: 60,
      benchmarkLatencyMs: { p50: 197, p95: 220, p99: 259 },
    },
    'run',
  );
  const latency = charts.find((c) => c.file === 'commitLatency.svg')!;
  for (const label of ['benchmark P50 197 ms', 'benchmark P95 220 ms', 'benchmark P99 259 ms']) expect(latency.svg).toContain(`>${label}</text>`);
  expect(latency.svg).toContain('>10:00</text>');
  expect(latency.svg).not.toMatch(/>\d\d-\d\d \d\d:\d\d</);
});

describe("the generator's own series (bench run's record)", () => {
  const start = new Date('2026-11-20T10:00:00Z');
  const series = { start, intervalSeconds: 1, started: [10, 10, 10, 10], startErrors: [0, 3, 0, 0], completed: [10, 0, 0, 27], latencyP99Ms: [90, 0, 0, 3100] };
  const [throughput, latency] = renderGeneratorCharts(series, { start, end: new Date(start.getTime() + 4000) }, 'temporal-150wps');

  test('starts, completions and start errors per second, each a line of its own', () => {
    expect(throughput.file).toBe('generatorThroughput.svg');
    for (const name of ['started/s', 'completed/s', 'start errors/s']) expect(throughput.svg).toContain(name);
    expect(throughput.svg).not.toContain(NO_DATA_TEXT);
  });

  test('a second without a completion has no latency point (a gap, not a zero)', () => {
    expect(latency.title).toBe('Benchmark generator: P99 latency of the workflows completed');
    expect(latency.svg).not.toContain(NO_DATA_TEXT);
    const stalled = { ...series, completed: [0, 0, 0, 0], latencyP99Ms: [0, 0, 0, 0] };
    const [, none] = renderGeneratorCharts(stalled, { start, end: new Date(start.getTime() + 4000) }, 'temporal-150wps');
    expect(none.svg).toContain(NO_DATA_TEXT);
  });
});
