import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { uiRelease } from '../../harness/binaries';

/*
 * The local tests' Web UI is the release the stack deploys: harness/ui-server's go.mod requires
 * the ui-server version that config's images.ui tag names (temporalio/ui:X is ui-server vX), so a
 * bump of one without the other fails here, not in a run.
 */

const required = (goMod: string) => /^require github\.com\/temporalio\/ui-server\/v2 v(\d+\.\d+\.\d+)$/m.exec(goMod)?.[1];

test("harness/ui-server builds config's images.ui release", () => {
  const goMod = readFileSync(join(__dirname, '../../harness/ui-server/go.mod'), 'utf8');
  expect(required(goMod)).toBe(uiRelease());
  // The check can fail: another release, or none, is not config's.
  expect(required(goMod.replace(/ui-server\/v2 v[\d.]+/, 'ui-server/v2 v2.1.0'))).not.toBe(uiRelease());
  expect(required('module x\n')).toBeUndefined();
});

test('each replaced requirement is named and is a patch apart from what the release requires', () => {
  const goMod = readFileSync(join(__dirname, '../../harness/ui-server/go.mod'), 'utf8');
  const replaces = [...goMod.matchAll(/^replace (\S+) => \1 v(\d+)\.(\d+)\.\d+$/gm)];
  expect(replaces.map((m) => m[1])).toEqual(['github.com/labstack/echo/v4', 'go.temporal.io/api']);
  for (const [, path, major, minor] of replaces)
    expect(goMod).toMatch(new RegExp(`^\\t${path.replace(/\./g, '\\.')} v${major}\\.${minor}\\.\\d+ // indirect$`, 'm'));
});

test.each([
  [{ registry: 'docker.io/temporalio/ui:latest', user: '1000:1000' }],
  [{ registry: 'ghcr.io/temporalio/ui:2.58.1', user: '1000:1000' }],
  [{ ecr: { repository: 'temporal-ui', tag: '2.58.1' }, user: '1000:1000' }],
])('an images.ui that names no temporalio/ui release is refused, before any build: %j', (ref) => {
  expect(() => uiRelease(ref)).toThrow(/^images\.ui .* is not docker\.io\/temporalio\/ui:<release>: the local tests build that release's ui-server$/);
});
