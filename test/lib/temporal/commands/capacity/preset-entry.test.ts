import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG, loadCatalog } from '../../../../../config';
import { chain } from '../../../../../config/scenario-steps';
import { changesFrom, entrySource, presetEntry, tsSource, writeEntry } from '../../../../../lib/temporal/commands/capacity/preset-entry';
import type { PresetInput } from '../../../../../lib/temporal/commands/capacity/preset-rule';
import { proposePreset } from '../../../../../lib/temporal/commands/capacity/propose-preset';
import { rateNoPresetHas } from '../../../../support/free-rate';
import { tempDir } from '../../../../support/temp-dir';

/* A proposal written as config writes a preset: a chain entry that merges back into the proposal. */

const PRESETS = CATALOG.temporal.scenarios as readonly PresetInput[];
const env = loadCatalog().temporal.environment;
const SCENARIOS_FILE = join(__dirname, '../../../../../config/temporal-scenarios.ts');

test('changesFrom keeps what differs, key by key, and marks a dropped key undefined', () => {
  expect(changesFrom({ a: { b: 1, c: 2 }, d: 3, e: [1] }, { a: { b: 1, c: 5 }, d: 3, e: [2], f: 'x' })).toEqual({ a: { c: 5 }, e: [2], f: 'x' });
  expect(changesFrom({ a: 1, b: 2 }, { a: 1 })).toEqual({ b: undefined });
  expect(changesFrom({ a: { b: 1 } }, { a: { b: 1 } })).toEqual({});
});

test('tsSource quotes keys that are not identifiers and escapes quotes', () => {
  expect(tsSource({ 'frontend.rps': 1, note: "the seed's", n: [1, 'a'] })).toBe(`{ 'frontend.rps': 1, note: 'the seed\\'s', n: [1, 'a'] }`);
});

const PAST_TOP = Math.max(...PRESETS.map((p) => p.benchmark.targetRate)) * 1.5;

test.each([rateNoPresetHas(), PAST_TOP])('the entry for %i/s, merged by the chain as config merges it, is the proposal', (rate) => {
  const p = proposePreset(rate, 'dsql', `proposal-${rate}wps`, PRESETS, env);
  const entry = presetEntry(p.preset, p.from, 'a note');
  expect(entry).toMatchObject({ name: `proposal-${rate}wps`, from: p.from.name, note: 'a note' });
  const { note: _note, ...step } = entry as { note: string; name: string };
  const merged = chain<PresetInput, 'title' | 'recorded'>(['title', 'recorded'], p.from, step as never).scenarios[1];
  const { title: _t, ...proposed } = p.preset;
  expect(merged).toEqual(proposed);
  expect(entrySource(entry, SCENARIOS_FILE)).toMatch(new RegExp(`^  \\{\\n    name: 'proposal-${rate}wps',\\n    from: '${p.from.name}',\\n`));
});

test("writeEntry adds the entry at the chain's end, laid out as prettier lays it out; a file with no chain end is refused in one line", () => {
  const dir = tempDir('preset-entry-');
  const file = join(dir, 'temporal-scenarios.ts');
  writeFileSync(file, readFileSync(SCENARIOS_FILE, 'utf8'));
  const p = proposePreset(rateNoPresetHas(), 'dsql', 'proposal-wps', PRESETS, env);
  writeEntry(file, entrySource(presetEntry(p.preset, p.from, 'n'), file));
  const text = readFileSync(file, 'utf8');
  expect(text).toMatch(/ {2}\{\n {4}name: 'proposal-wps',\n[^]*\n {2}\},\n\);\n\nexport const TEMPORAL_SCENARIOS/);
  expect(text.split('\n').length).toBeGreaterThan(readFileSync(SCENARIOS_FILE, 'utf8').split('\n').length);
  writeFileSync(file, 'export const X = 1;\n');
  expect(() => writeEntry(file, '{}')).toThrow(/has no end of the preset chain/);
});
