import { CATALOG, ConfigError } from '../../../config';
import type { CatalogInput } from '../../../config/catalog-schema';
import { familyOf, resolveScenario } from '../../families';
import { loadAwsClients } from '../aws/load-clients';
import { type CommandDeps, type CommandOutput, EXIT_UNSAFE } from '../shared/cli';
import { deployedOutputs, refuseLifelongChanges } from '../shared/lifelong';
import { resolveTarget } from '../shared/target';
import { readReport } from '../shared/report-file';
import { planTransition, renderPlan } from './transition-plan';

/* `npm run plan`: what deploying one scenario over another would do; exits EXIT_UNSAFE when something stateful would be replaced. */

export interface PlanOptions {
  readonly from: string;
  /** The scenario to deploy next; or, with `proposal`, the phase a FOLIO report proposed. */
  readonly to?: string;
  /** A report.json whose "What to try next" proposed a phase or preset: plan the switch to it. */
  readonly proposal?: string;
  readonly envName?: string;
  readonly json?: boolean;
  /** Read the deployed data stack: --from must be what it was last deployed with, and what it keeps for life must not change. */
  readonly checkDeployed?: boolean;
  readonly endpointUrl?: string;
}

export async function runPlan(o: PlanOptions, deps: Pick<CommandDeps, 'aws'> = {}): Promise<CommandOutput> {
  if (o.endpointUrl !== undefined && !o.checkDeployed)
    throw new ConfigError('--endpoint-url goes with --check-deployed, the only AWS call plan makes (valid: both, or neither)');
  const { to, catalog } = target(o);
  if (o.checkDeployed) await checkDeployed(o, to, catalog, deps);
  const plan = planTransition(o.from, to, { envName: o.envName, catalog });
  const exitCode = plan.unsafe.length ? EXIT_UNSAFE : 0;
  if (!o.json) return { stdout: renderPlan(plan), exitCode };
  const stacks = plan.stacks.map((s) => ({ stackName: s.stackName, changes: s.changes }));
  const data = { from: plan.from.name, to: plan.to.name, stacks, unsafe: plan.unsafe.length, ...(plan.notes.moves ? { moves: plan.notes.moves.json } : {}) };
  return { stdout: `${JSON.stringify(data, null, 2)}\n`, exitCode };
}

/** The scenario to plan to: --to, or the phase a report proposed, added to the catalog for this plan only. */
function target(o: PlanOptions): { to: string; catalog: CatalogInput } {
  if (o.to !== undefined && o.proposal !== undefined) throw new ConfigError('--to and --proposal both name where to go (valid: one of them)');
  if (o.proposal === undefined) {
    if (o.to === undefined) throw new ConfigError('no target: pass --to <scenario>, or --proposal <report.json> for the phase a report proposed');
    return { to: o.to, catalog: CATALOG };
  }
  const report = readReport(o.proposal, '--proposal');
  const next = report.proposal?.next?.phase;
  // Its status is the report's verdict: a next phase beside any other status was not proposed.
  if (!next || report.proposal?.status !== 'proposed')
    throw new ConfigError(
      `--proposal "${o.proposal}" proposes no ${familyOf(report).noun} (its proposal: ${report.proposal?.status ?? 'none, an older report'}) (valid: a report.json whose "What to try next" proposes a change)`,
    );
  if (report.scenario !== o.from)
    throw new ConfigError(`--proposal "${o.proposal}" proposes what follows ${report.scenario}, not --from ${o.from} (valid: --from ${report.scenario})`);
  const catalog = structuredClone(CATALOG) as CatalogInput;
  familyOf(report).addProposed(catalog, next);
  // The proposed phase is the file's, not config's: a mistake in it is named as the file's.
  try {
    resolveScenario({ scenario: next.name }, catalog);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    throw new ConfigError(
      `--proposal "${o.proposal}": the ${familyOf(report).noun} it proposes does not fit config: ${e.message.replace(/^config error /, '')}`,
    );
  }
  return { to: next.name, catalog };
}

/** --check-deployed: the data stack as deployed, against --from and against config's lifelong settings; one line for either mismatch. */
async function checkDeployed(o: PlanOptions, to: string, catalog: CatalogInput, deps: Pick<CommandDeps, 'aws'>): Promise<void> {
  const { scenario, aws: target } = resolveTarget({ scenario: to, envName: o.envName, endpointUrl: o.endpointUrl, catalog });
  const family = familyOf(scenario);
  const cfn = (deps.aws ?? loadAwsClients)().cloudFormation(target);
  const outputs = await deployedOutputs(cfn, scenario.stackName);
  if (!outputs)
    throw new ConfigError(
      `--check-deployed: ${scenario.stackName} is not deployed in ${scenario.env.region} (valid: without --check-deployed before the first deploy; check --env-name)`,
    );
  const deployed = outputs[family.scenarioOutput];
  if (deployed !== o.from)
    throw new ConfigError(
      `--from ${o.from}, but ${scenario.stackName} was last deployed with ${deployed ?? 'an unrecorded scenario'} (valid: --from ${deployed ?? '<the scenario deployed>'})`,
    );
  refuseLifelongChanges(family.lifelongSettings(scenario), outputs, scenario.stackName);
}
