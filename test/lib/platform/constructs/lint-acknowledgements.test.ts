import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKOV_SKIPS_FILE, loadCheckovSkips } from '../../../../lib/platform/constructs/lint-acknowledgements';
import { synthObservability, synthScenario } from '../../../support/synth';

// One scenario per family: every resource a skip can name exists in one of them.
const templates = [{ scenario: 'temporal-150wps' }, { scenario: 'test10' }].flatMap((c) => [synthScenario(c), synthObservability(c)]);
const stackPaths = templates.flatMap(({ artifact, json }) =>
  Object.values(json.Resources as Record<string, any>).map((r) => ({
    path: String(r.Metadata?.['aws:cdk:path'] ?? '').slice(artifact.path.length + 1),
    resource: r,
  })),
);

describe('checkov-skips.yaml', () => {
  const skips = loadCheckovSkips();

  test('every entry names resources that exist, and each is written into their metadata with its reason', () => {
    expect(skips.length).toBeGreaterThan(0);
    for (const skip of skips) {
      for (const path of skip.resources) {
        const found = stackPaths.filter((p) => p.path === path);
        expect({ check: skip.check, path, found: found.length > 0 }).toEqual({ check: skip.check, path, found: true });
        for (const { resource } of found) expect(resource.Metadata.checkov.skip).toContainEqual({ id: skip.check, comment: skip.reason });
      }
    }
  });

  test('no resource carries a checkov skip that the file does not list', () => {
    const listed = new Set(skips.flatMap((s) => s.resources.map((r) => `${s.check} ${r}`)));
    const written = stackPaths.flatMap(({ path, resource }) => (resource.Metadata?.checkov?.skip ?? []).map((s: { id: string }) => `${s.id} ${path}`));
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((w) => !listed.has(w))).toEqual([]);
  });

  test('an entry without a real reason is refused, naming the file and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skips-'));
    try {
      const file = join(dir, 'skips.yaml');
      writeFileSync(file, '- check: CKV_AWS_115\n  reason: it is fine\n  resources: [Schema/StartTask/Resource]\n');
      expect(() => loadCheckovSkips(file)).toThrow(new RegExp(`^${file}: .*\\n.*reason`, 's'));
      writeFileSync(file, '- check: AWS115\n  reason: ' + 'x'.repeat(60) + '\n  resources: [Schema/StartTask/Resource]\n');
      expect(() => loadCheckovSkips(file)).toThrow(/check/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('is the file at the root of the project', () => {
    expect(CHECKOV_SKIPS_FILE).toBe(join(__dirname, '../../../../checkov-skips.yaml'));
  });
});
