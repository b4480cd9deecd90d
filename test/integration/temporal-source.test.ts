import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TemporalScenario, resolveScenario } from '../../config';
import { DYNAMIC_CONFIG_KEYS } from '../../config/temporal-dynamic-config-keys';
import { binaries } from '../../harness/binaries';
import { UPSTREAM_RETRY, UPSTREAM_WORKFLOW_TASK_TIMEOUT_SECONDS } from '../../harness/lost-starts';

/*
 * What config and the metrics record say of upstream Temporal, held to the source of the very
 * release the local tests build (the module setup-integration installs): the release and its
 * schema versions, every dynamic-config key the project may set, and every metric line the
 * report's queries cite. A version bump that is not re-recorded fails here.
 */

const source = binaries().serverSource;
const read = (file: string) => readFileSync(join(source, file), 'utf8');
const { servers } = (resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario).environment;
const contract = JSON.parse(readFileSync(join(__dirname, '../fixtures/temporal-metrics/contract.json'), 'utf8'));

test("config's release and schema versions are the built source's", () => {
  expect(read('common/headers/version_checker.go')).toMatch(new RegExp(`ServerVersion = "${servers.upstream.release.replace(/\./g, '\\.')}"`));
  const schemas = read('schema/postgresql/v12/version.go');
  expect(schemas).toContain(`const Version = "${servers.upstream.schemas.history}"`);
  expect(schemas).toContain(`const VisibilityVersion = "${servers.upstream.schemas.visibility}"`);
});

test('every dynamic-config key the project may set is registered in the release, with the kind config gives it', () => {
  const constants = read('common/dynamicconfig/constants.go');
  const kinds: Record<string, RegExp> = { int: /IntSetting/, float: /FloatSetting/, bool: /BoolSetting/, duration: /DurationSetting/ };
  for (const [key, spec] of Object.entries(DYNAMIC_CONFIG_KEYS)) {
    // The definition line (`X = NewGlobalIntSetting(`) stands right above the key's line.
    const lines = constants.split('\n');
    const at = lines.findIndex((l) => l.trim() === `"${key}",`);
    expect([key, at >= 0]).toEqual([key, true]);
    expect([key, kinds[spec.kind].test(lines[at - 1])]).toEqual([key, true]);
  }
});

test("every metric line the upstream store's record cites defines that metric", () => {
  const store = contract.stores['aurora-postgresql'];
  expect(store.version).toBe(`v${servers.upstream.release}`);
  for (const [name, m] of Object.entries<{ source: string }>(store.metrics)) {
    const [file, line] = m.source.split(':');
    expect([name, read(file).split('\n')[Number(line) - 1]]).toEqual([name, expect.stringContaining(`"${name}"`)]);
  }
});

test("the retry policy and workflow task timeout the fault suite's bound assumes are the release's defaults", () => {
  const retry = read('common/retrypolicy/retry_policy.go').split('\n').slice(75, 81).join('\n');
  expect(retry).toContain('var DefaultDefaultRetrySettings = DefaultRetrySettings{');
  expect(retry).toContain(
    `InitialInterval:            ${UPSTREAM_RETRY.initialSeconds === 1 ? 'time.Second' : `${UPSTREAM_RETRY.initialSeconds} * time.Second`},`,
  );
  expect(retry).toContain(`MaximumIntervalCoefficient: ${UPSTREAM_RETRY.maximumIntervalCoefficient.toFixed(1)},`);
  expect(retry).toContain(`BackoffCoefficient:         ${UPSTREAM_RETRY.backoffCoefficient.toFixed(1)},`);
  expect(read('common/primitives/constants.go').split('\n')[15]).toContain(
    `DefaultWorkflowTaskTimeout = ${UPSTREAM_WORKFLOW_TASK_TIMEOUT_SECONDS} * time.Second * debug.TimeoutMultiplier`,
  );
});
