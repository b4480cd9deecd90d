import type { ImageRef, Scenario } from '../../../config';
import type { PreflightCheck, PreflightClients } from './preflight-checks';

/** `preflight`: what it asks of a family. */
export interface FamilyPreflight<S extends Scenario> {
  /** The images its stacks run, by where config names them. */
  images(scenario: S): [string, ImageRef][];
  /** Its own checks of the account. */
  preflightChecks(clients: PreflightClients): Promise<PreflightCheck[]>;
}
