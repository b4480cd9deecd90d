import { ConfigError, resolveScenario } from '../../../config';
import type { CatalogInput } from '../../../config/catalog-schema';
import { leafDiff } from '../shared/leaf-diff';

/*
 * "What to try next": the shape every family's proposal takes (lib/<family>/commands/report/*-proposals.ts),
 * and config's verdict on the scenario it proposes.
 */

export interface Proposal {
  /**
   * proposed: a change; blocked: a rule holds but config refuses its change as it stands (the
   * reason says what a person must decide); unchanged: no rule holds; unjudged: the window
   * cannot carry advice.
   */
  readonly status: 'proposed' | 'blocked' | 'unchanged' | 'unjudged';
  readonly rule?: string;
  readonly says: string;
  /** The figures behind it, each against its threshold. */
  readonly evidence: readonly string[];
  /** What the data could not rule out. */
  readonly caveats: readonly string[];
  /** The phase (or preset) to add to config, and what differs from the one that ran. */
  readonly next?: { readonly phase: { readonly name: string }; readonly diff: readonly string[] };
}

/** The proposed scenario, if config accepts it beside the others, with what differs from the one that ran; or config's refusal. */
export function accepted<T extends { name: string }>(
  catalog: CatalogInput,
  ran: T,
  next: T,
  add: (c: CatalogInput) => void,
): { phase: T; diff: string[] } | ConfigError {
  const edited = structuredClone(catalog) as CatalogInput;
  add(edited);
  try {
    resolveScenario({ scenario: next.name }, edited);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  // What a reader compares: the settings, not the scenario's own name, words and record.
  const bookkeeping = /^(name|title|observation|recorded)(\.|:)/;
  return { phase: next, diff: leafDiff(ran, next).filter((l) => !bookkeeping.test(l)) };
}
