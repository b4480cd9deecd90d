import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Each Python tool the tests run is installed from its requirements file under its lock
 * (scripts/setup-python.sh): the lock must hold every requirement at the version it names, or
 * pip refuses the install, or a bump to a requirement is tested with yesterday's dependencies.
 */

const ROOT = join(__dirname, '../..');
const VENVS = ['dev', 'checkov'];

/** `name==version` lines, by normalized name (PEP 503: case and `-_.` runs do not count; extras dropped). */
function pins(text: string): Map<string, string> {
  const lines = text.split('\n').map((l) => l.replace(/#.*/, '').trim());
  return new Map(
    lines
      .filter(Boolean)
      .map((l) => l.match(/^([A-Za-z0-9._-]+)(?:\[[^\]]*\])?==(\S+)$/))
      .map((m, i) => {
        if (!m) throw new Error(`not a pin: ${lines.filter(Boolean)[i]}`);
        return [m[1].toLowerCase().replace(/[-_.]+/g, '-'), m[2]];
      }),
  );
}

/** Each requirement the lock does not hold at its version. */
function unlocked(requirements: string, lock: string): string[] {
  const locked = pins(lock);
  return [...pins(requirements)]
    .filter(([name, version]) => locked.get(name) !== version)
    .map(([name, version]) => `${name}==${version} (lock: ${locked.get(name) ?? 'none'})`);
}

test.each(VENVS)('requirements-%s.txt: every requirement is in its lock at its version', (name) => {
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
  expect(unlocked(read(`requirements-${name}.txt`), read(`requirements-${name}.lock.txt`))).toEqual([]);
});

test('the check is able to fail: a bumped requirement, and one the lock lacks', () => {
  const lock = 'cfn-lint==1.58.0\nmoto==5.2.5\nboto3==1.40.0\n';
  expect(unlocked('cfn-lint==1.58.0\nmoto[server]==5.2.5\n', lock)).toEqual([]);
  expect(unlocked('cfn-lint==1.59.0\nMoto[server]==5.2.5\nuritools==7.0.0\n', lock)).toEqual([
    'cfn-lint==1.59.0 (lock: 1.58.0)',
    'uritools==7.0.0 (lock: none)',
  ]);
});
