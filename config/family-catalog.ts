import type { z } from './zod';
import type { FamilyIdentity } from './family-identity';

/*
 * One family's part of config: where its scenarios are and what they are called (its identity),
 * the schema of its section of the catalog and the rules across it, the section as written, and
 * how one of its scenarios resolves against the rest of the section.
 */

/** What every family's scenario carries, resolved: its name, protection, stack name and target. */
export interface ScenarioBase {
  readonly name: string;
  readonly envName?: string;
  /** false only while tearing down (`-c unprotect=true`). */
  readonly protect: boolean;
  readonly stackName: string;
  readonly env: { readonly account?: string; readonly region: string };
}

/** What resolveScenario hands a family beside its section: the scenario's name and the context every family reads, checked. */
export interface Resolving {
  readonly name: string;
  readonly envName?: string;
  readonly protect: boolean;
  /** The family's own context keys (`contextKeys`), parsed; undefined where not given. */
  readonly own: Readonly<Record<string, unknown>>;
}

export interface FamilyCatalog<Section extends z.ZodType = z.ZodType, S extends ScenarioBase = ScenarioBase> {
  readonly identity: FamilyIdentity;
  /** Its section of the catalog (`folio: { environment, modules, phases }`). */
  readonly section: Section;
  /** The section as config/ writes it. */
  readonly written: z.input<Section>;
  /** The rules across its section (a routing that reads across clusters, a preset that does not fit its pools). */
  check(section: z.output<Section>, ctx: z.core.$RefinementCtx): void;
  /** The `-c` keys only its scenarios read, each with its schema (`fleet`). */
  readonly contextKeys: Readonly<Record<string, z.ZodType>>;
  /** Its scenario of that name, resolved against the section; undefined when it has none of that name. */
  resolve(section: z.output<Section>, r: Resolving): S | undefined;
}
