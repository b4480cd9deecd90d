import { ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { CATALOG, ConfigError, describeOffload, FAMILY_NAME, type FolioScenario, resolveScenario, type Scenario } from '../../../config';
import { loadPrices } from '../../../config/prices';
import { costOf } from '../shared/cost-model';
import { usd } from '../shared/money';
import type { CatalogInput } from '../../../config/catalog-schema';
import { markdownTable } from '../shared/markdown-table';
import { type MovePlan, planPhaseSwitch } from '../shared/move-plan';
import { renderMovePlan } from '../shared/render-move-plan';
import { scenarioTemplates } from '../../assembly/scenario-app';
import { type CfnTemplate, type ResourceChange, resourceChanges } from './resource-changes';

/*
 * What `cdk deploy --all -c scenario=<to>` would do to stacks deployed with `<from>`, worked out
 * offline: both scenarios are synthesized in process, as `cdk synth` would, and each stack's
 * two templates are compared with CloudFormation's resource specification (which property
 * updates replace a resource). No account, no change set.
 */

interface StackPlan {
  readonly stackName: string;
  readonly changes: readonly ResourceChange[];
}

export interface Plan {
  readonly from: Scenario;
  readonly to: Scenario;
  readonly stacks: readonly StackPlan[];
  /** Stateful resources that would be replaced, destroyed or orphaned. */
  readonly unsafe: readonly ResourceChange[];
  /** FOLIO: the schemas the switch moves between the clusters (`npm run move`), and what to restart. */
  readonly moves?: MovePlan;
}

export interface TransitionOptions {
  readonly envName?: string;
  readonly catalog?: CatalogInput;
}

/** Synthesizes both scenarios and compares them stack by stack. */
export function planTransition(from: string, to: string, options: TransitionOptions = {}): Plan {
  const context = (scenario: string) => ({ scenario, ...(options.envName ? { envName: options.envName } : {}) });
  const catalog = options.catalog ?? CATALOG;
  // Resolve both first: a bad name is one line before anything is synthesized.
  const [a, b] = [resolveScenario(context(from), catalog, '--from'), resolveScenario(context(to), catalog, '--to')];
  if (a.family !== b.family)
    throw new ConfigError(
      `"${a.name}" is a ${familyName(a)} and "${b.name}" a ${familyName(b)}: a plan compares two scenarios of one family (valid: two FOLIO phases, or two Temporal presets)`,
    );
  if (a.name === b.name) throw new ConfigError(`--from and --to are both "${a.name}": name two different scenarios`);
  if (a.family === 'temporal' && b.family === 'temporal' && a.preset.store.engine !== b.preset.store.engine)
    throw new ConfigError(
      `"${a.name}" keeps Temporal's history in ${a.preset.store.engine} and "${b.name}" in ${b.preset.store.engine}: an environment keeps its store for life ` +
        `(the switch would orphan the history, and its deploy is refused); deploy "${b.name}" as a second environment: -c envName=<name>`,
    );

  return comparePlans(a, b, scenarioTemplates(a, context(from)), scenarioTemplates(b, context(to)));
}

/** The plan between two sets of templates, by stack name (a stack only in `after` is all new). */
export function comparePlans(from: Scenario, to: Scenario, before: ReadonlyMap<string, CfnTemplate>, after: ReadonlyMap<string, CfnTemplate>): Plan {
  const stacks = [...after.keys()].map((stackName) => ({ stackName, changes: resourceChanges(before.get(stackName) ?? {}, after.get(stackName)!) }));
  const moves = from.family === 'folio' && to.family === 'folio' ? planPhaseSwitch(from, to) : undefined;
  return { from, to, stacks, unsafe: stacks.flatMap((s) => s.changes.filter((c) => c.unsafe)), ...(moves ? { moves } : {}) };
}

const titleOf = (s: Scenario) => (s.family === 'folio' ? s.phase.title : s.preset.title);
const familyName = (s: Scenario) => FAMILY_NAME[s.family];

const ACTION: Readonly<Record<ResourceImpact, string>> = {
  [ResourceImpact.WILL_CREATE]: 'add',
  [ResourceImpact.WILL_UPDATE]: 'update in place',
  [ResourceImpact.WILL_REPLACE]: 'REPLACE',
  [ResourceImpact.MAY_REPLACE]: 'MAY REPLACE',
  [ResourceImpact.WILL_DESTROY]: 'DESTROY',
  [ResourceImpact.WILL_ORPHAN]: 'ORPHAN (removed from the stack, kept in the account)',
  [ResourceImpact.WILL_IMPORT]: 'import',
  [ResourceImpact.NO_CHANGE]: 'no change',
};

/** A task definition is immutable: its "replacement" is a new revision, which is how ECS deploys. */
const actionOf = (c: ResourceChange) =>
  c.type === 'AWS::ECS::TaskDefinition' && c.impact === ResourceImpact.WILL_REPLACE ? 'new revision' : ACTION[c.impact] + (c.unsafe ? ' (stateful!)' : '');

/**
 * A property's old and new values; or, when they cannot be shown in a table cell, why: a
 * secret's value is a reference resolved at deploy time, and a long value is in `cdk diff`.
 */
function values(from: unknown, to: unknown): string {
  const show = (v: unknown) => (v === undefined ? 'unset' : JSON.stringify(v).replaceAll('|', '\\|'));
  const [a, b] = [show(from), show(to)];
  if (/resolve:secretsmanager|SecretString/.test(a + b)) return ': a secret reference, resolved at deploy time (its value is not in the template)';
  return a.length + b.length <= 120 ? `: ${a} -> ${b}` : `: changed (${a.length + b.length} characters of values; \`npx cdk diff\` shows them)`;
}

/** What a FOLIO switch does to the offload cluster's kind and to the tenant count the phase was measured with. */
function offloadNotes(from: FolioScenario, to: FolioScenario): string[] {
  const out: string[] = [];
  const [a, b] = [from.phase.offload, to.phase.offload];
  if ((a.serverless === undefined) !== (b.serverless === undefined))
    out.push(
      `## Offload cluster: ${describeOffload(a)} -> ${describeOffload(b)}`,
      '',
      'The same cluster and its data: Serverless v2 and provisioned are classes of its writer, so CloudFormation changes the class in place ' +
        '(the INTERRUPTION above: minutes without the offload cluster). Stop the modules routed to it before the deploy and start them after, ' +
        'as for a move; no schema moves for the class change itself.',
      '',
    );
  const have = to.environment.tenants.length;
  if (to.phase.tenants !== have)
    out.push(
      `Tenants: ${to.name}'s figures come from ${to.phase.tenants} tenants; this environment has ${have}${have < to.phase.tenants ? ': a scaled-down rerun' : ''}.`,
      '',
    );
  return out;
}

/** Each side's daily cost (on-demand, config/prices), so a switch says what it costs. */
function costLines(from: Scenario, to: Scenario): string[] {
  const prices = loadPrices(to.env.region);
  const [a, b] = [costOf(from, prices).total, costOf(to, prices).total];
  const delta = b - a;
  return [
    `Daily cost (on-demand, \`npm run cost\`): ${from.name} ${usd(a)} -> ${to.name} ${usd(b)} (${delta >= 0 ? '+' : '-'}${usd(Math.abs(delta))} a day).`,
    '',
  ];
}

/** The plan as markdown: per stack, what is added, modified (with properties), replaced or destroyed. */
export function renderPlan(plan: Plan): string {
  const out = [`# Plan: ${plan.from.name} -> ${plan.to.name}`, '', `${titleOf(plan.to)}. Offline, from the synthesized templates (${plan.to.env.region}).`, ''];
  for (const s of plan.stacks) {
    out.push(`## ${s.stackName}`, '');
    if (s.changes.length === 0) {
      out.push('No changes.', '');
      continue;
    }
    const interrupted = s.changes.filter((c) => c.interruptions.length);
    const counts = new Map<string, number>();
    for (const c of s.changes) counts.set(actionOf(c), (counts.get(actionOf(c)) ?? 0) + 1);
    if (interrupted.length) counts.set('with an interruption', interrupted.length);
    out.push(`${[...counts].map(([action, n]) => `${n} ${action}`).join(', ')}.`, '');
    const rows = s.changes.map((c) => [
      actionOf(c),
      `\`${c.logicalId}\``,
      c.type,
      c.properties.length
        ? c.properties.map((p) => `${p.name}${values(p.from, p.to)} (${p.interruption ? 'update in place, WITH INTERRUPTION' : ACTION[p.impact]})`).join('<br>')
        : '-',
    ]);
    out.push(markdownTable(['Action', 'Logical ID', 'Type', 'Properties (CloudFormation update impact)'], rows), '');
    const where = (c: ResourceChange) => `${c.logicalId}${c.path ? ` (${c.path.split('/').slice(1, -1).join('/')})` : ''}`;
    if (interrupted.length)
      out.push(`INTERRUPTION: ${interrupted.map((c) => `${where(c)}: ${c.interruptions.join('; ')}`).join('. ')}. Plan the switch between test runs.`, '');
    const noted = s.changes.filter((c) => c.notes.length);
    if (noted.length) out.push(`Note: ${noted.map((c) => `${where(c)}: ${c.notes.join('; ')}`).join('. ')}.`, '');
  }
  if (plan.from.family === 'folio' && plan.to.family === 'folio') out.push(...offloadNotes(plan.from, plan.to));
  out.push(...costLines(plan.from, plan.to));
  if (plan.moves)
    out.push(
      '## Data',
      '',
      renderMovePlan(plan.moves),
      plan.moves.moves.length ? `Move them before the deploy, with the modules stopped: npm run move -- --from ${plan.from.name} --to ${plan.to.name}` : '',
      '',
    );
  out.push(
    plan.unsafe.length
      ? `UNSAFE: ${plan.unsafe.length} stateful resource(s) would be replaced or destroyed: ${plan.unsafe.map((c) => `${c.logicalId} (${c.type}, ${ACTION[c.impact]})`).join('; ')}. Do not deploy this switch as is.`
      : 'Safe: no stateful resource is replaced, destroyed or orphaned.',
    '',
  );
  return out.join('\n');
}
