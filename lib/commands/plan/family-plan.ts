import type { Scenario } from '../../../config';
import type { LifelongSetting } from '../shared/lifelong';

/** What `plan` says about a switch beyond its resources. */
export interface SwitchNotes {
  /** Printed before the cost lines. */
  readonly notes: readonly string[];
  /** What must move before the deploy: as `plan --json` gives it, and as markdown. */
  readonly moves?: { readonly count: number; readonly json: unknown; readonly markdown: readonly string[] };
}

/** `plan`: what it asks of a family about a switch between two of its scenarios. */
export interface FamilyPlan<S extends Scenario> {
  /** Refuses a switch no deploy may make (one line), before anything is synthesized. */
  checkSwitch(from: S, to: S): void;
  /** What a deployed environment keeps for life, each recorded by a data stack output: compared before a deploy (lib/commands/shared/lifelong.ts). */
  lifelongSettings(scenario: S): readonly LifelongSetting[];
  /** What a switch means beyond the templates: settings to know, and data to move before the deploy. */
  switchNotes(from: S, to: S): SwitchNotes;
}
