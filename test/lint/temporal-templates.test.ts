import { lintSuite } from '../support/lint';
import { TEMPORAL_SCENARIO_NAMES } from '../support/synth';

lintSuite([
  ...TEMPORAL_SCENARIO_NAMES.map((scenario) => ({ scenario })),
  { scenario: 'temporal-150wps', envName: 'perf2', fleet: 'parked' },
  { scenario: 'temporal-150wps', unprotect: 'true', fleet: 'running' },
]);
