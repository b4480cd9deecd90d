import type { Catalog } from '../../../config/catalog-schema';

/** `scenarios`: what it asks of a family. */
export interface FamilyScenarios {
  /** The table of its scenarios config generates, and the markers of its section in its page; none when it keeps no table. */
  readonly scenarioTable?: {
    readonly markers: readonly [start: string, end: string];
    render(catalog: Catalog): string;
  };
}
