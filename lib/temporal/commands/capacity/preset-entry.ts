import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../../../config';
import type { PresetInput } from './preset-rule';

/*
 * A proposal as config writes a preset: the chain's entry in config/temporal-scenarios.ts, what
 * it changes from the preset it names in `from` (config/scenario-steps.ts merges it back).
 */

type Plain = Record<string, unknown>;
const isPlain = (x: unknown): x is Plain => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The fields of `after` that differ from `before`, objects compared key by key; a key `after` drops is undefined. */
export function changesFrom(before: Plain, after: Plain): Plain {
  const out: Plain = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [b, a] = [before[key], after[key]];
    if (isPlain(b) && isPlain(a)) {
      const inner = changesFrom(b, a);
      if (Object.keys(inner).length) out[key] = inner;
    } else if (JSON.stringify(b) !== JSON.stringify(a)) out[key] = a;
  }
  return out;
}

/** The chain entry for `preset`: its name, `from`, its note, and what it changes. */
export function presetEntry(preset: PresetInput, from: PresetInput, note: string): Plain {
  const { name, title: _title, ...body } = preset;
  const { name: _n, title: _t, recorded: _r, ...base } = from;
  return { name, from: from.name, note, ...changesFrom(base, body) };
}

const KEY = /^[A-Za-z_$][\w$]*$/;

/** TypeScript source of a plain value (prettier lays it out). */
export function tsSource(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(tsSource).join(', ')}]`;
  if (isPlain(v)) {
    const fields = Object.entries(v).map(([k, x]) => `${KEY.test(k) ? k : tsSource(k)}: ${tsSource(x)}`);
    return `{ ${fields.join(', ')} }`;
  }
  return String(v);
}

/** The value as TypeScript laid out by the project's prettier settings, indented as an entry of the chain. */
export function entrySource(entry: Plain, file: string): string {
  const laidOut = formatted(`const entry = ${tsSource(entry)};\n`, file);
  return laidOut
    .replace(/^const entry = /, '')
    .replace(/;\n$/, '')
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/** The project's prettier settings, wherever the file is. */
const PRETTIER_CONFIG = join(__dirname, '../../../../.prettierrc.json');

/** Laid out by the project's own prettier, as `npm run format` would (its CLI: its API loads as ESM only). */
function formatted(source: string, file: string): string {
  const cli = require.resolve('prettier/bin/prettier.cjs');
  return execFileSync(process.execPath, [cli, '--config', PRETTIER_CONFIG, '--stdin-filepath', file], { input: source, encoding: 'utf8' });
}

/** Where a new entry goes: after the chain's last entry, before the call closes. */
const CHAIN_END = /\n\);\n\nexport const TEMPORAL_SCENARIOS/;

/** The entry added to the end of the chain in `file`, the file laid out again; refused in one line if it has no chain end to add to. */
export function writeEntry(file: string, source: string): void {
  const text = readFileSync(file, 'utf8');
  const end = text.search(CHAIN_END);
  if (end < 0) throw new ConfigError(`${file} has no end of the preset chain ("\\n);" before "export const TEMPORAL_SCENARIOS") to add the preset at`);
  writeFileSync(file, formatted(`${text.slice(0, end)}\n${source},${text.slice(end)}`, file));
}
