import type { FolioScenario } from '../../config';
import { HybridAuroraStack } from '../hybrid-aurora-stack';
import type { FamilyStacks } from '../platform/family';

/** The FOLIO family's stack: loaded by synth, never by a command. */
export const FOLIO_STACKS: FamilyStacks<FolioScenario> = {
  addDataStack: (app, scenario) => ({ stack: new HybridAuroraStack(app, scenario.stackName, { scenario, env: scenario.env }), deployed: {} }),
};
