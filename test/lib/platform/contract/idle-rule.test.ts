import { resolveScenario, resolveScenarioOf, type FolioScenario, type TemporalScenario } from '../../../../config';
import { folioIdleRules } from '../../../../lib/folio/contract/folio-idle-rule';
import { type IdleMinute, type IdleRule, idleExpression, idleSince, minuteBreaches } from '../../../../lib/platform/contract/idle-rule';
import { temporalIdleRules } from '../../../../lib/temporal/contract/temporal-idle-rule';
import { editedCatalog } from '../../../support/synth';

/*
 * The idle rule's decision, evaluated as CloudWatch evaluates the alarm, on minute-by-minute
 * shapes of what the metrics show in the situations that matter: each should park or not.
 */

/** How this file's scenarios are named in a refusal. */
const USE = { option: 'scenario', command: 'the idle rules' };

const [temporal] = temporalIdleRules(resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario);
const [folio] = folioIdleRules(resolveScenario({ scenario: 'test11' }) as FolioScenario);
const [, store] = temporalIdleRules(resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario);

/** Minutes built from segments: `n` minutes of the same datapoints (an absent key: no datapoint). */
const shape = (...segments: Array<[number, IdleMinute]>): IdleMinute[] => segments.flatMap(([n, m]) => Array.from({ length: n }, () => m));

// What the Temporal metrics show (the rule reads workers, generators, workerCpu).
const RUN = { workers: 6, generators: 1, workerCpu: 55 };
const UP_IDLE = { workers: 6, generators: 0, workerCpu: 1.5 };
const UP_NO_GENERATOR_DATA = { workers: 6, workerCpu: 1.5 };
const PARKED = {};
const PARKED_REPORTING_ZERO = { workers: 0 };

test('the config behind these shapes: an hour, under 5% CPU; two hours for FOLIO', () => {
  expect([temporal.minutes, temporal.rule]).toEqual([60, expect.objectContaining({ kind: 'all' })]);
  expect(folio.minutes).toBe(120);
});

describe.each<[string, IdleMinute[], number | undefined]>([
  ['a 5-minute run, then the fleet forgotten: parked an hour after the run ends', shape([5, RUN], [70, UP_IDLE]), 5 + 60 - 1],
  ['the generator reports nothing once it has stopped (no datapoint is "none running")', shape([5, RUN], [70, UP_NO_GENERATOR_DATA]), 5 + 60 - 1],
  [
    'a ladder with 10-minute pauses between steps, for three hours: never',
    shape(
      ...Array.from(
        { length: 9 },
        () =>
          [
            [10, RUN],
            [10, UP_IDLE],
          ] as Array<[number, IdleMinute]>,
      ).flat(),
    ),
    undefined,
  ],
  ['bench up, then 45 minutes before the run starts: never', shape([45, UP_IDLE], [30, RUN], [10, UP_IDLE]), undefined],
  ['a parked fleet publishes nothing: never (and bench up starts a fresh count)', shape([600, PARKED], [59, UP_IDLE], [5, RUN]), undefined],
  ['a parked fleet reporting 0 running tasks: never', shape([600, PARKED_REPORTING_ZERO]), undefined],
  ['workers busy with load from elsewhere (no generator, 40% CPU): never', shape([200, { workers: 6, generators: 0, workerCpu: 40 }]), undefined],
  ["the workers' CPU missing while they are up: not evidence of idleness, never", shape([200, { workers: 6, generators: 0 }]), undefined],
  ['a two-hour steady run: never', shape([120, RUN]), undefined],
  ['one minute short of the hour, then a run: never', shape([59, UP_IDLE], [1, RUN], [59, UP_IDLE]), undefined],
])('Temporal: %s', (_name, minutes, expected) => {
  test(expected === undefined ? 'does not park' : `parks at minute ${expected}`, () => expect(idleSince(temporal, minutes)).toBe(expected));
});

describe.each<[string, IdleMinute[], number | undefined]>([
  ['no client on either cluster for 130 minutes: stopped after two hours', shape([130, { primary: 0, offload: 0 }]), 119],
  ["FOLIO's modules connected to the writer all along: never", shape([600, { primary: 42, offload: 0 }]), undefined],
  [
    'stopped (no datapoint): never; restarted by Aurora after 7 days and still idle: stopped again two hours later',
    shape([600, {}], [130, { primary: 0, offload: 0 }]),
    600 + 119,
  ],
  ['one cluster reporting, the other not (a stop in progress): never', shape([200, { primary: 0 }]), undefined],
  [
    'a job that connects for a minute every 90 minutes: never',
    shape(
      ...Array.from(
        { length: 4 },
        () =>
          [
            [89, { primary: 0, offload: 0 }],
            [1, { primary: 1, offload: 0 }],
          ] as Array<[number, IdleMinute]>,
      ).flat(),
    ),
    undefined,
  ],
])('FOLIO: %s', (_name, minutes, expected) => {
  test(expected === undefined ? 'does not stop' : `stops at minute ${expected}`, () => expect(idleSince(folio, minutes)).toBe(expected));
});

describe.each<[string, IdleMinute[], number | undefined]>([
  ['a running cluster: its servers hold their pools all along, never', shape([600, { store: 48 }]), undefined],
  ['hibernated with the store stopped: nothing reported, never', shape([600, {}]), undefined],
  ['restarted by Aurora after 7 days, no server running: stopped again an hour later', shape([600, {}], [70, { store: 0 }]), 600 + 59],
  ['woken: the servers connect within minutes, never', shape([3, { store: 0 }], [200, { store: 48 }]), undefined],
])("Temporal's Aurora store: %s", (_name, minutes, expected) => {
  test(expected === undefined ? 'does not stop' : `stops at minute ${expected}`, () => expect(idleSince(store, minutes)).toBe(expected));
});

test('the Aurora store has its own rule, the DSQL one none (DSQL bills no idle compute)', () => {
  expect(store).toMatchObject({ id: 'IdleStore', action: 'stop-clusters', clusters: ['temporal-history'], minutes: 60 });
  expect(temporalIdleRules(resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario).map((r) => r.id)).toEqual(['IdleFleet']);
});

describe('the expression the alarm evaluates says what the evaluation above does', () => {
  test('Temporal: every term, with its fill', () => {
    expect(idleExpression(temporal)).toBe('IF(FILL(workers, 0) > 0 AND FILL(generators, 0) == 0 AND FILL(workerCpu, 100) < 5, 1, 0)');
  });
  test('FOLIO: the sum of both clusters, unfilled', () => {
    expect(idleExpression(folio)).toBe('IF((primary + offload) <= 0, 1, 0)');
  });
  test('a minute with no datapoint is missing, never breaching', () => {
    expect(minuteBreaches(temporal, {})).toBeUndefined();
    expect(minuteBreaches(folio, { primary: 0 })).toBeUndefined();
  });
});

describe('the rule can fail', () => {
  test('filling a missing CPU minute with 0 instead would park workers whose CPU is merely late', () => {
    const terms = (temporal.rule as Extract<IdleRule['rule'], { kind: 'all' }>).terms.map((t) => (t.metric === 'workerCpu' ? { ...t, fill: 0 } : t));
    const broken: IdleRule = { ...temporal, rule: { kind: 'all', terms } };
    const late = shape([200, { workers: 6, generators: 0 }]);
    expect([idleSince(broken, late), idleSince(temporal, late)]).toEqual([59, undefined]);
  });

  test('summing with a fill of 0 would stop a cluster while its partner reports connections late', () => {
    expect(idleSince(folio, shape([200, { primary: 0 }]))).toBeUndefined();
    const filled = shape([200, { primary: 0, offload: 0 }]);
    expect(idleSince(folio, filled)).toBe(119);
  });

  test('idle off in config: no rule', () => {
    const catalog = editedCatalog((c) => {
      c.temporal.environment.spending.idle = { action: 'off' };
      c.folio.environment.spending.idle = { action: 'off' };
    });
    for (const name of ['temporal-150wps', 'temporal-aurora-150wps'])
      expect(temporalIdleRules(resolveScenarioOf('temporal', { scenario: name }, USE, catalog))).toEqual([]);
    expect(folioIdleRules(resolveScenarioOf('folio', { scenario: 'test11' }, USE, catalog))).toEqual([]);
  });
});
