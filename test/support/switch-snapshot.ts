import { FOLIO_PREDECESSORS } from '../../config/folio-phases';
import { TEMPORAL_PREDECESSORS } from '../../config/temporal-scenarios';
import { type CfnTemplate, resourceChanges } from '../../lib/commands/plan/resource-changes';
import { leafDiff } from '../../lib/commands/shared/leaf-diff';
import { synthScenario } from './synth';

const PREDECESSORS: Readonly<Record<string, string>> = { ...FOLIO_PREDECESSORS, ...TEMPORAL_PREDECESSORS };

/**
 * What a scenario's snapshot holds: the whole template for a family's first scenario, and for
 * every other the switch from the scenario it follows in config: each resource plan would
 * change, with CloudFormation's impact, then every leaf of the template that differs. Applied
 * to the predecessor's template, the leaves give this one's (test/lib/commands/shared/leaf-diff.test.ts).
 */
export function switchSnapshot(name: string, template: CfnTemplate): CfnTemplate | Switch {
  const leaves = switchLeaves(name, template);
  if (leaves === undefined) return template;
  const before = synthScenario({ scenario: leaves.from }).json;
  return {
    from: leaves.from,
    resources: resourceChanges(before, template).map((c) => `${c.logicalId} (${c.type}): ${c.impact}${c.unsafe ? ', stateful' : ''}`),
    leaves: leaves.leaves,
  };
}

/** A snapshot's leaves alone (none for a family's first scenario): what test/lib/commands/shared/leaf-diff.test.ts checks. */
export function switchLeaves(name: string, template: CfnTemplate): Pick<Switch, 'from' | 'leaves'> | undefined {
  const from = PREDECESSORS[name];
  if (from === undefined) return undefined;
  return { from, leaves: leafDiff(synthScenario({ scenario: from }).json, template, { arrays: 'items' }) };
}

/** A switch as its snapshot holds it. */
export interface Switch {
  readonly from: string;
  /** What plan says of each resource that changes. */
  readonly resources: readonly string[];
  /** `path: before -> after`, every leaf that differs. */
  readonly leaves: readonly string[];
}
