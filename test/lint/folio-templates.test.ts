import { lintSuite } from '../support/lint';
import { FOLIO_PHASE_NAMES } from '../support/synth';

lintSuite([
  ...FOLIO_PHASE_NAMES.map((scenario) => ({ scenario })),
  { scenario: 'test12', envName: 'perf2' },
  { scenario: 'test12', unprotect: 'true' },
]);
