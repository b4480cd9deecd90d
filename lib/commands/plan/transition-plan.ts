import { plural } from '../shared/figure';
import { ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { CATALOG, ConfigError, type Scenario } from '../../../config';
import { costOf, familyOf, resolveScenario } from '../../families';
import { loadPrices } from '../../../config/prices';
import { usd } from '../shared/money';
import type { CatalogInput } from '../../../config/catalog-schema';
import { markdownTable } from '../shared/markdown-table';
import type { SwitchNotes } from './family-plan';
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
  /** What the switch means beyond its resources (FOLIO: the schemas it moves between the clusters, `npm run move`). */
  readonly notes: SwitchNotes;
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
      `"${a.name}" is a ${familyOf(a).kind} and "${b.name}" a ${familyOf(b).kind}: a plan compares two scenarios of one family (valid: two FOLIO phases, or two Temporal presets)`,
    );
  if (a.name === b.name) throw new ConfigError(`--from and --to are both "${a.name}": name two different scenarios`);
  familyOf(a).checkSwitch(a, b);

  return comparePlans(a, b, scenarioTemplates(a, context(from)), scenarioTemplates(b, context(to)));
}

/** The plan between two sets of templates, by stack name (a stack only in `after` is all new). */
export function comparePlans(from: Scenario, to: Scenario, before: ReadonlyMap<string, CfnTemplate>, after: ReadonlyMap<string, CfnTemplate>): Plan {
  const stacks = [...after.keys()].map((stackName) => ({ stackName, changes: resourceChanges(before.get(stackName) ?? {}, after.get(stackName)!) }));
  return { from, to, stacks, unsafe: stacks.flatMap((s) => s.changes.filter((c) => c.unsafe)), notes: familyOf(from).switchNotes(from, to) };
}

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
  const out = [
    `# Plan: ${plan.from.name} -> ${plan.to.name}`,
    '',
    `${familyOf(plan.to).title(plan.to)}. Offline, from the synthesized templates (${plan.to.env.region}).`,
    '',
  ];
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
    out.push(`${[...counts].map(([action, n]) => `${n} × ${action}`).join(', ')}.`, '');
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
  out.push(...plan.notes.notes, ...costLines(plan.from, plan.to));
  if (plan.notes.moves) out.push('## Data', '', ...plan.notes.moves.markdown, '');
  out.push(
    plan.unsafe.length
      ? `UNSAFE: ${plural(plan.unsafe.length, 'stateful resource')} would be replaced or destroyed: ${plan.unsafe.map((c) => `${c.logicalId} (${c.type}, ${ACTION[c.impact]})`).join('; ')}. Do not deploy this switch as is.`
      : 'Safe: no stateful resource is replaced, destroyed or orphaned.',
    '',
  );
  return out.join('\n');
}
