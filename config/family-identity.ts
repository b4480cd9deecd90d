/** What config knows of a family before any schema: where its scenarios are, what one is called, which campaign loads its steps run. */
export interface FamilyIdentity {
  readonly name: string;
  /** The table of its section that holds its scenarios: folio.phases, temporal.scenarios. */
  readonly table: string;
  /** One of its scenarios, in messages: "FOLIO phase". */
  readonly scenarioName: string;
  /** The campaign loads its steps may run, in the order a message lists them. */
  readonly loads: readonly string[];
}
