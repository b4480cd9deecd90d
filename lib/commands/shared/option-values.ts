import { ConfigError } from '../../../config';
import { SPAN_GRAMMAR, spanSeconds } from '../../../config/fields';

/* The values a command's options take: durations within their bounds, and numbers as a person writes them. */

/**
 * A span of seconds as Go and the user write it: 90s, 30m, 2h, 1h30m, 1m59.6s. Rounded to a
 * tenth first, so 119.96 s is 2m and never 1m60s.
 */
export const span = (seconds: number): string => {
  const tenths = Math.round(seconds * 10);
  const [h, m, sec] = [Math.floor(tenths / 36_000), Math.floor((tenths % 36_000) / 600), (tenths % 600) / 10];
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${sec || (!h && !m) ? `${sec}s` : ''}`;
};

/** The longest any duration option may be unless it says otherwise: nothing a command runs or waits for needs more than a day, and Node's timers overflow past 24.8 days. */
const DAY: DurationBound = { seconds: 86_400, why: 'nothing a command runs or waits for needs longer' };

export interface DurationBound {
  readonly seconds: number;
  /** Why, as the message says it. */
  readonly why: string;
}

/** How long a command's --timeout and --interval may be. */
export const WAIT_BOUNDS = {
  timeout: { seconds: 2 * 86_400, why: 'a wait of two days is something stuck, not slow' },
  interval: { seconds: 3600, why: 'a poll at least hourly, so an outcome is seen within the hour' },
} as const satisfies Record<string, DurationBound>;

/**
 * A duration option in seconds (config/fields.ts's SPAN_GRAMMAR, which a campaign's steps share),
 * from `min` seconds up to `max`, or one ConfigError line naming the option, the value and what is valid.
 */
export function durationOption(option: string, value: string, min = 1, max: DurationBound = DAY): number {
  const s = spanSeconds(value);
  if (!Number.isFinite(s) || s < min)
    throw new ConfigError(`${option} "${value}" is not valid (valid: ${SPAN_GRAMMAR}, ${min > 0 ? `at least ${min} s` : 'or 0'})`);
  if (s > max.seconds) throw new ConfigError(`${option} "${value}" is longer than ${span(max.seconds)} (valid: at most ${span(max.seconds)}: ${max.why})`);
  return s;
}

export function numberOption(name: string, raw: string | undefined, o: { min: number; max: number; integer?: boolean; what?: string }): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  // Decimal as a person writes it: Number() would also take 0x10, 1e3 and padding.
  const ok = /^\d+(\.\d+)?$/.test(raw) && v >= o.min && v <= o.max && (!o.integer || Number.isInteger(v));
  if (!ok) throw new ConfigError(`${name} "${raw}" is not valid (valid: ${o.what ?? (o.integer ? 'a whole number' : 'a number')} from ${o.min} to ${o.max})`);
  return v;
}

/** --prometheus-url: an http(s) URL, checked before anything runs. */
export function prometheusUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`--prometheus-url "${text}" is not a URL (valid: http(s)://host[:port][/path], e.g. http://127.0.0.1:9090)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`--prometheus-url "${text}" is not http or https (valid: http(s)://host[:port][/path])`);
  return text.replace(/\/$/, '');
}
