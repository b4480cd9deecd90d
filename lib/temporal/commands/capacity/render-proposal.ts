import { TEMPORAL_ROLES } from '../../../../config/temporal-roles';
import { renderCost } from '../../../commands/shared/render-cost';
import type { CostEstimate } from '../../../commands/shared/cost-model';
import { markdownTable } from '../../../commands/shared/markdown-table';
import { type CapacityReport, renderHeadroom } from './pool-capacity';
import { changesFrom } from './preset-entry';
import type { PresetInput } from './preset-rule';
import type { Proposal } from './propose-preset';

/* `capacity --rate` as markdown: where the rate falls, each number and its rule, the limits, the entry to paste, the cost. */

export interface ProposalView {
  readonly proposal: Proposal;
  /** The shipped preset of the same name, when the rate is one a preset has. */
  readonly existing?: PresetInput;
  /** The chain entry, as it goes into config/temporal-scenarios.ts. */
  readonly source: string;
  readonly headroom: CapacityReport;
  readonly estimate: CostEstimate;
  /** The file --write added the entry to. */
  readonly written?: string;
}

const STORE_NAME = { dsql: 'Aurora DSQL', aurora: 'Aurora PostgreSQL' } as const;

export function renderProposal(v: ProposalView): string {
  const { proposal: p } = v;
  const out = [`## A preset for ${p.rate.toLocaleString('en-US')} workflows/s on ${STORE_NAME[p.store]}`, '', where(p), ''];
  if (v.existing) out.push(reproduces(v.existing, p.preset), '');
  const columns = p.neighbours.lower === p.neighbours.upper ? [p.neighbours.upper.name] : [p.neighbours.lower.name, p.neighbours.upper.name];
  out.push(markdownTable(['Number', 'Proposed', ...columns, 'Rule'], numberRows(p)), '');
  if (p.moved.length) out.push('What a bound moved from the rule:', '', ...p.moved.map((m) => `- ${m}`), '');
  out.push(...renderHeadroom(v.headroom));
  out.push(
    '### The config entry',
    '',
    v.written
      ? `Added at the end of the chain in ${v.written}. Next: \`npm run format\`, then \`npx jest test/lib/temporal-dsql-stack.test.ts -u\` (the snapshot of its switch from ${p.from.name}), then \`npm test\` (docs/configuration.md, "Add a Temporal preset").`
      : `Paste it at the end of the chain in config/temporal-scenarios.ts, or run again with \`--write <name>\` to add it there.`,
    '',
    '```ts',
    v.source,
    '```',
    '',
  );
  return [...out, renderCost(v.estimate)].join('\n');
}

function where(p: Proposal): string {
  const { kind, lower, upper } = p.neighbours;
  const rule = `(docs/configuration.md, "How a preset's numbers are chosen")`;
  if (kind === 'at') return `${upper.name} has this rate: the rule gives its numbers ${rule}.`;
  if (kind === 'below') return `Below the smallest preset, ${upper.name}: its sizing, the smallest working cluster ${rule}.`;
  if (kind === 'above')
    return `Past the top preset, ${upper.name}: its counts grown in proportion to the rate (the worker role's not), its shapes and settings ${rule}.`;
  return `Between ${lower.name} and ${upper.name}: each count on the line between theirs, counted in vCPUs and rounded up to whole tasks of ${upper.name}'s size, with ${upper.name}'s shapes and settings ${rule}.`;
}

/** Whether the rule gives the shipped preset of this rate, field for field; else which fields differ. */
function reproduces(existing: PresetInput, proposed: PresetInput): string {
  const strip = ({ name: _n, title: _t, recorded: _r, ...body }: PresetInput) => body;
  const paths = leafPaths(changesFrom(strip(existing), strip(proposed)));
  return paths.length
    ? `The rule departs from ${existing.name} in ${paths.join(', ')}: its note in config/temporal-scenarios.ts says why.`
    : `The rule reproduces ${existing.name}: no field differs.`;
}

function leafPaths(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? leafPaths(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function numberRows(p: Proposal): string[][] {
  const { lower, upper } = p.neighbours;
  const task = (s: { replicas: number; vcpu: number; memoryGiB: number }) => `${s.replicas} × ${s.vcpu} vCPU / ${s.memoryGiB} GiB`;
  const grown = p.neighbours.kind === 'at' || p.neighbours.kind === 'below' ? `${upper.name}'s` : 'vCPUs on the line, whole tasks';
  const neighbours = lower === upper ? [upper] : [lower, upper];
  const row = (what: string, of: (x: PresetInput) => string, rule: string) => [what, of(p.preset), ...neighbours.map(of), rule];
  const pool = (x: PresetInput, k: 'main' | 'benchmark') =>
    `${k === 'main' ? x.capacity.main.instances : x.capacity.benchmark.maxInstances} × ${x.capacity[k].instanceType}`;
  return [
    ...TEMPORAL_ROLES.map((r) =>
      row(
        `services.${r}`,
        (x) => task(x.services[r]),
        r === 'worker' && p.neighbours.kind === 'above' ? `${upper.name}'s: it does not grow with the rate` : grown,
      ),
    ),
    row('benchmark.workers', (x) => task(x.benchmark.workers), grown),
    row('capacity.main', (x) => pool(x, 'main'), `${grown}, then at least the fewest that fit`),
    row('capacity.benchmark', (x) => pool(x, 'benchmark'), `${grown}, then at least the fewest that fit, at most what the quota leaves`),
    row('pools (maxConns)', (x) => TEMPORAL_ROLES.map((r) => `${r} ${x.pools[r].maxConns}`).join(', '), `${upper.name}'s`),
    row('store', (x) => storeText(x.store), p.store === 'dsql' ? `${upper.name}'s` : `${p.from.name}'s`),
    row('dynamicConfig', (x) => `${Object.keys(x.dynamicConfig).length} keys`, `${upper.name}'s`),
    row('benchmark.generator', (x) => `${x.benchmark.generator.vcpu} vCPU / ${x.benchmark.generator.memoryGiB} GiB`, `${upper.name}'s`),
  ];
}

function storeText(s: PresetInput['store']): string {
  if (s.engine !== 'dsql')
    return `Aurora writer ${s.writer.instanceClass ?? `Serverless v2 ${s.writer.serverlessAcu?.min}-${s.writer.serverlessAcu?.max} ACU`}`;
  const c = s.connections;
  const limiter = c?.limiter ? `${c.limiter.kind} limiter` : 'limiter';
  return [limiter, c?.reservoir ? 'reservoir' : '', c?.lease ? `lease ${c.lease.blockSize} × ${c.lease.blockCount}` : ''].filter(Boolean).join(', ');
}
