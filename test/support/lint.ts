import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  CONTROL_TOWER_METADATA,
  CONTROL_TOWER_RULES,
  type ControlTowerAcknowledgement,
  loadCheckovSkips,
} from '../../lib/platform/constructs/lint-acknowledgements';
import { cacheDir } from '../../harness/cache-dir';
import { namesIn, PLACEHOLDER, resourceKeys, sectionsKey, unitsFor } from './lint-units';
import { CACHED_VARIANTS } from './synth';
import { cachedAssembly, cachedStacks } from './synth-cache';

/*
 * Templates through the linters a reviewer would run: CDK's built-in CloudFormation validation
 * and cdk-nag's AwsSolutions pack through CDK's Validations API (both run when the run's synth
 * cache is built: test/support/synth-cache.ts), then cfn-lint, checkov and AWS's Control Tower
 * rules (cfn-guard). Most of what they judge is the same resource in many templates: each
 * resource is judged once per key (test/support/lint-units.ts), each template's whole-template
 * rules once per content, and every result is kept under its key, in a folder named for the
 * linters' installed versions and the code that runs them: a change re-lints only what it
 * changed, and a stale result cannot be found. Each linter also runs on a deliberately broken
 * template it must fail on, and on a control whose findings one plain run of it must match.
 */
const ROOT = join(__dirname, '../..');
const PYTHON = join(ROOT, '.venv/bin/python');
/** cfn-lint in two passes over its rules (the schema's, and every other): test/support/cfn-lint-pass.py. */
const CFN_LINT_PASS = join(__dirname, 'cfn-lint-pass.py');
const CHECKOV = join(ROOT, '.venv-checkov/bin/checkov');
/** AWS Control Tower's proactive controls as AWS ships them for cfn-guard, with the guard binary, in one pinned npm package. */
const CT_PACKAGE = join(ROOT, 'node_modules/@cdklabs/cdk-validator-cfnguard');
const CFN_GUARD = join(CT_PACKAGE, 'bin/ubuntu', process.arch === 'arm64' ? 'aarch64' : 'x86_64', 'cfn-guard');
const CT_RULES = join(CT_PACKAGE, 'rules/control-tower/cfn-guard');

interface CheckovResult {
  readonly check_id: string;
  readonly resource: string;
  readonly file_abs_path: string;
  readonly check_result: { readonly result: string; readonly suppress_comment?: string };
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A linter run in the background, so that cfn-lint and checkov share the suite's wall time. */
function run(tool: string, args: readonly string[]): Promise<Run> {
  if (!existsSync(tool)) return Promise.reject(new Error(`${tool} is not installed: run \`npm run setup\` (creates .venv and .venv-checkov)`));
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** One cfn-lint finding, as its JSON output gives it. */
interface CfnLintMatch {
  readonly Filename: string;
  readonly Rule: { readonly Id: string };
  readonly Location: { readonly Path: readonly (string | number)[] };
  readonly Message: string;
}

/** cfn-lint's status bits for its findings (errors 2, warnings 4, informational 8): any other status did not lint. */
const CFN_LINT_STATUSES = [0, 2, 4, 6, 8, 10, 12, 14];

/** A finding as the tests print it: rule, path, message. */
const said = (m: CfnLintMatch) => `${m.Rule.Id} ${m.Location.Path.join('/')}: ${m.Message}`;

/**
 * cfn-lint over files, in one pass (`schema`, `template`) or the whole of it (`plain`, the passes'
 * reference): its findings. `judges`: for the schema pass, a JSON file of the ids each unit
 * judges, the only resources it validates there (cfn-lint-pass.py).
 */
async function cfnLint(pass: 'schema' | 'template' | 'plain', files: readonly string[], judges?: string): Promise<CfnLintMatch[]> {
  if (!files.length) return [];
  const args = ['--format', 'json', '--', ...files];
  const r =
    pass === 'plain'
      ? await run(join(ROOT, '.venv/bin/cfn-lint'), args)
      : await run(PYTHON, [CFN_LINT_PASS, pass, ...(judges ? ['--judges', judges] : []), ...args]);
  // A linter that could not run leaves nothing behind to be read as a pass.
  if (r.stderr || !CFN_LINT_STATUSES.includes(r.status ?? -1)) throw new Error(`cfn-lint (${pass}) exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return JSON.parse(r.stdout) as CfnLintMatch[];
}

/** checkov over CloudFormation templates, offline: its JSON results (exit 1 only means "failed checks"). */
async function checkov(
  files: readonly string[],
): Promise<{ summary: Record<string, unknown>; results: Record<'failed_checks' | 'skipped_checks' | 'parsing_errors', CheckovResult[]> }> {
  const r = await run(CHECKOV, ['--framework', 'cloudformation', '--skip-download', '--compact', '--output', 'json', ...files.flatMap((f) => ['--file', f])]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`checkov exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** One template's findings from cfn-guard's structured output: "<rule> <logical id>", each once. */
interface GuardFile {
  readonly name: string;
  readonly not_compliant?: unknown[];
}
function guardFindings(file: GuardFile): string[] {
  const found = new Set<string>();
  for (const finding of file.not_compliant ?? []) {
    const rule = (finding as { Rule?: { name?: string } }).Rule?.name ?? 'unnamed rule';
    // The resources a failed rule names: any path into /Resources/<id> in its clauses.
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object')
        for (const [k, v] of Object.entries(x)) {
          if (k === 'path' && typeof v === 'string' && v.startsWith('/Resources/')) found.add(`${rule} ${v.split('/')[2]}`);
          else walk(v);
        }
    };
    walk(finding);
  }
  return [...found].sort();
}

/** Every Control Tower rule file, with the resource types it names (each file judges the resources of its types); read once. */
let ruleFiles: { readonly file: string; readonly types: readonly string[] }[] | undefined;
function controlTowerRuleFiles(): { readonly file: string; readonly types: readonly string[] }[] {
  return (ruleFiles ??= readdirSync(CT_RULES)
    .sort()
    .flatMap((dir) =>
      readdirSync(join(CT_RULES, dir))
        .sort()
        .map((f) => join(CT_RULES, dir, f)),
    )
    .map((file) => ({ file, types: [...new Set(readFileSync(file, 'utf8').match(/(?<=")AWS::[A-Za-z0-9]+::[A-Za-z0-9]+(?=")/g) ?? [])] })));
}

/**
 * The rule files that can judge a template with these resource types: those naming one of its
 * types, and those naming none. A file whose types are all absent passes whatever else the
 * template holds (its rules run only when resources of its types exist; the test "a Control
 * Tower rule file fails nothing on a template without its resource types" holds every file of
 * the pinned set to that), so leaving it out is the same judgement for a quarter of the work.
 */
function controlTowerRulesFor(types: ReadonlySet<string>): string[] {
  return controlTowerRuleFiles()
    .filter((r) => r.types.length === 0 || r.types.some((t) => types.has(t)))
    .map((r) => r.file);
}

/** cfn-guard with the given rules over templates: each file's findings. */
async function guard(rules: readonly string[], files: readonly string[]): Promise<Map<string, string[]>> {
  const r = await run(CFN_GUARD, [
    'validate',
    ...rules.flatMap((f) => ['--rules', f]),
    '--structured',
    '--output-format',
    'json',
    '--show-summary',
    'none',
    ...files.flatMap((f) => ['--data', f]),
  ]);
  // 0: all pass, 19: some rule failed; anything else did not run.
  if (r.status !== 0 && r.status !== 19) throw new Error(`cfn-guard exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  const results = JSON.parse(r.stdout) as GuardFile[];
  return new Map(files.map((f) => [f, guardFindings(results.find((x) => x.name === f) ?? { name: f })]));
}

/** Templates grouped by the Control Tower rule files that can judge them. */
function controlTowerGroups(files: readonly string[]): { rules: string[]; files: string[] }[] {
  const groups = new Map<string, { rules: string[]; files: string[] }>();
  for (const f of files) {
    const rules = controlTowerRulesFor(new Set(Object.values<{ Type: string }>(JSON.parse(readFileSync(f, 'utf8')).Resources ?? {}).map((r) => r.Type)));
    const group = groups.get(rules.join('\n')) ?? { rules, files: [] };
    group.files.push(f);
    groups.set(rules.join('\n'), group);
  }
  return [...groups.values()];
}

/** AWS's Control Tower rules over templates, each template judged by the rule files that can judge it: each file's findings. */
async function controlTower(files: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const { rules, files: group } of controlTowerGroups(files)) for (const [f, found] of await guard(rules, group)) out.set(f, found);
  return out;
}

/** A copy of `template` with one resource changed by `edit`, written to `file`: the linters' negative controls. */
function broken(template: Record<string, any>, file: string, edit: (resources: Record<string, any>) => void): string {
  const bad = structuredClone(template);
  edit(bad.Resources);
  writeFileSync(file, JSON.stringify(bad));
  return file;
}

/** Every cached variant's assembly, both stacks' templates, and its validation report. */
function assemblies() {
  return CACHED_VARIANTS.map((context) => {
    const outdir = cachedAssembly(context);
    if (!outdir) throw new Error(`no cached synth of ${JSON.stringify(context)}: run the lint suite through Jest (its globalSetup builds the cache)`);
    const { data, observability } = cachedStacks(outdir);
    return { context, outdir, template: data.templateFile, templates: [data.templateFile, observability.templateFile] };
  });
}

/** The linters' installed versions and the code that runs them: what, besides the templates, their results depend on. */
function lintKey(): string {
  const hash = createHash('sha256');
  for (const file of [__filename, join(__dirname, 'lint-units.ts'), CFN_LINT_PASS]) hash.update(readFileSync(file));
  if (existsSync(CT_PACKAGE)) hash.update(readFileSync(join(CT_PACKAGE, 'package.json'))).update(readFileSync(join(CT_PACKAGE, 'guard-version.json')));
  for (const venv of [join(ROOT, '.venv'), join(ROOT, '.venv-checkov')]) {
    const lib = join(venv, 'lib');
    if (!existsSync(lib)) continue;
    for (const python of readdirSync(lib))
      hash.update(
        readdirSync(join(lib, python, 'site-packages'))
          .filter((d) => d.endsWith('.dist-info'))
          .sort()
          .join('\n'),
      );
  }
  return hash.digest('hex').slice(0, 16);
}

interface LintResults {
  readonly cfnLint: Run;
  readonly checkov: Awaited<ReturnType<typeof checkov>>;
  readonly badCfnLint: string;
  readonly badCheckov: string;
  readonly flowLogGroupId: string;
  /** Every template's Control Tower findings, by file; the broken control's among them. */
  readonly controlTower: ReadonlyMap<string, readonly string[]>;
  readonly badControlTower: string;
  readonly loggedClusterId: string;
  /** Every resource type the linted templates and units hold. */
  readonly resourceTypes: readonly string[];
  /** Each template's lint, by file. */
  readonly linted: ReadonlyMap<string, TemplateLint>;
  /** A copy of the first template planted with a finding of each kind the units and passes divide. */
  readonly planted: ReturnType<typeof plant>;
  /** Plain runs of each linter over a control: cfn-lint over the planted copy, checkov and the Control Tower rules over their own. */
  readonly reference: Awaited<ReturnType<typeof plainLint>>;
}

/** cfn-lint's exit status bits for its findings: errors 2, warnings 4, informational 8. */
const CFN_LINT_LEVEL: Record<string, number> = { E: 2, W: 4, I: 8 };

/** A result as kept: its file is written as this placeholder. */
const HERE = '<template>';

/** checkov's results on one resource. */
interface CheckovLint {
  readonly failed: CheckovResult[];
  readonly skipped: CheckovResult[];
  /** Whether any check judged it (failed, skipped or passed): the resource count. */
  readonly checked: boolean;
}

/** One resource's lint, kept under its key. */
interface ResourceLint {
  readonly cfnLint: readonly string[];
  readonly checkov: CheckovLint;
  /** The Control Tower rules it fails. */
  readonly controlTower: readonly string[];
}

/** One template's lint: its own (whole-template rules) and its resources' and sections', each kept under its key. */
interface TemplateLint {
  readonly cfnLint: readonly string[];
  readonly controlTower: readonly string[];
  readonly checkov: { readonly failed: CheckovResult[]; readonly skipped: CheckovResult[]; readonly resources: number };
}

/**
 * Where results are kept: by the linters' versions and their code, outside any one source state
 * or checkout (the user's cache: a fresh clone, as CI's, finds what an earlier one judged).
 */
function lintCacheDir(): string {
  const dir = join(process.env.LINT_CACHE_DIR ?? join(cacheDir(), 'lint'), lintKey());
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A result written whole or not at all: another checkout's run may read the same cache at once. */
function keep(file: string, result: unknown): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(result));
  renameSync(partial, file);
}

const contentHash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 32);

/** Files dealt to two single-threaded processes, each taking the next largest while it holds fewer bytes. */
function balanced(files: readonly string[]): string[][] {
  const parts: { files: string[]; bytes: number }[] = [
    { files: [], bytes: 0 },
    { files: [], bytes: 0 },
  ];
  for (const [file, bytes] of files.map((f) => [f, statSync(f).size] as const).sort((a, b) => b[1] - a[1])) {
    const part = parts[0].bytes <= parts[1].bytes ? parts[0] : parts[1];
    part.files.push(file);
    part.bytes += bytes;
  }
  return parts.map((p) => p.files).filter((f) => f.length);
}

/** The id a checkov result names: `AWS::Logs::LogGroup.Id` -> `Id`. */
const checkovId = (r: CheckovResult) => r.resource.slice(r.resource.lastIndexOf('.') + 1);

/**
 * Lints what no earlier run has linted, and keeps each result under its key:
 * - each template whole (by content), through cfn-lint's whole-template pass and the Control
 *   Tower rules;
 * - each resource once (by its key: test/support/lint-units.ts), through cfn-lint's schema pass
 *   and checkov, in units cut from the first template that holds it;
 * - each template's sections once (by their key), through cfn-lint's schema pass.
 * A change re-lints only the templates, resources and sections it changed.
 */
async function lintTemplates(files: readonly string[], work: string): Promise<Map<string, TemplateLint>> {
  const dir = lintCacheDir();
  const kept = (kind: 'template' | 'resource' | 'sections', key: string) => join(dir, `${kind}-${key}.json`);
  const templates = [...new Set(files)].map((file) => ({ file, template: JSON.parse(readFileSync(file, 'utf8')), hash: contentHash(file) }));
  const whole = templates.filter((t) => !existsSync(kept('template', t.hash))).map((t) => t.file);
  const units = unitsFor(templates, (key) => existsSync(kept('resource', key)) || existsSync(kept('sections', key)));
  const unitFiles = units.map((u, i) => {
    const file = join(work, `unit-${i}.template.json`);
    writeFileSync(file, JSON.stringify(u.template));
    return file;
  });
  // A unit's other resources are there for what its judged ones name; their findings are not read.
  const judges = join(work, 'judges.json');
  writeFileSync(judges, JSON.stringify(Object.fromEntries(units.map((u, i) => [unitFiles[i], [...u.judges.keys()]]))));
  const resourceUnits = unitFiles.filter((_, i) => units[i].judges.size);
  if (resourceUnits.length && !existsSync(CFN_GUARD))
    throw new Error(`${CFN_GUARD} is not installed: run \`npm ci\` (@cdklabs/cdk-validator-cfnguard ships it)`);
  const [schema, template, ck, ct] = await Promise.all([
    // The schema pass is most of the work: two processes, each with about half the units' bytes.
    Promise.all(balanced(unitFiles).map((part) => cfnLint('schema', part, judges))).then((r) => r.flat()),
    cfnLint('template', whole),
    resourceUnits.length ? checkov(resourceUnits) : undefined,
    // cfn-guard is single-threaded too: two processes as well.
    Promise.all(balanced(resourceUnits).map(controlTower)).then((maps) => new Map(maps.flatMap((m) => [...m]))),
  ]);
  if (ck && (ck.results.parsing_errors as unknown as string[]).length) throw new Error(`checkov could not parse ${ck.results.parsing_errors.join(', ')}`);
  const passed = (ck?.results as Record<string, CheckovResult[] | undefined> | undefined)?.passed_checks ?? [];
  for (const [i, u] of units.entries()) {
    const unit = unitFiles[i];
    const found = schema.filter((m) => m.Filename === unit);
    const onResource = (m: CfnLintMatch) => m.Location.Path[0] === 'Resources' && m.Location.Path.length > 1;
    for (const [id, key] of u.judges) {
      const mine = (r: CheckovResult) => r.file_abs_path === unit && checkovId(r) === id;
      const placed = (r: CheckovResult) => ({ ...r, file_abs_path: HERE });
      const failed = ck?.results.failed_checks.filter(mine) ?? [];
      const skipped = ck?.results.skipped_checks.filter(mine) ?? [];
      const result: ResourceLint = {
        cfnLint: found.filter((m) => onResource(m) && m.Location.Path[1] === id).map(said),
        checkov: { failed: failed.map(placed), skipped: skipped.map(placed), checked: failed.length + skipped.length > 0 || passed.some(mine) },
        controlTower: ct
          .get(unit)!
          .filter((f) => f.endsWith(` ${id}`))
          .map((f) => f.slice(0, -id.length - 1)),
      };
      keep(kept('resource', key), result);
    }
    if (u.sections) keep(kept('sections', u.sections), { cfnLint: found.filter((m) => !onResource(m)).map(said) });
  }
  for (const t of templates.filter((x) => whole.includes(x.file)))
    keep(kept('template', t.hash), { cfnLint: template.filter((m) => m.Filename === t.file).map(said) });
  const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
  return new Map(
    templates.map(({ file, template: json, hash }) => {
      const own = read<{ cfnLint: string[] }>(kept('template', hash));
      const resources = [...resourceKeys(json)].map(([id, key]) => ({ id, ...read<ResourceLint>(kept('resource', key)) }));
      const sections = read<{ cfnLint: string[] }>(kept('sections', sectionsKey(json)));
      const lint: TemplateLint = {
        cfnLint: [...own.cfnLint, ...sections.cfnLint, ...resources.flatMap((r) => r.cfnLint)],
        controlTower: resources.flatMap((r) => r.controlTower.map((rule) => `${rule} ${r.id}`)).sort(),
        checkov: {
          failed: resources.flatMap((r) => r.checkov.failed),
          skipped: resources.flatMap((r) => r.checkov.skipped),
          resources: resources.filter((r) => r.checkov.checked).length,
        },
      };
      return [file, lint];
    }),
  );
}

/**
 * A copy of `template` planted with a finding of each kind the units and passes divide: a
 * required property removed (a resource's own schema), a security group turned into a topic
 * while the resources that read its GroupId stay as they were (judged by what they name), a
 * DependsOn on nothing, an unused parameter (a whole-template rule), an output asking for an
 * attribute its resource lacks (the sections).
 */
function plant(template: Record<string, any>, file: string) {
  const t = structuredClone(template);
  const resources = t.Resources as Record<string, any>;
  const ids = Object.keys(resources);
  const group = ids.find(
    (id) => resources[id].Type === 'AWS::EC2::SecurityGroup' && ids.some((o) => JSON.stringify(resources[o]).includes(`{"Fn::GetAtt":["${id}","GroupId"]}`)),
  )!;
  const readers = ids.filter((o) => JSON.stringify(resources[o]).includes(`{"Fn::GetAtt":["${group}","GroupId"]}`));
  resources[group].Type = 'AWS::SNS::Topic';
  const required = ids.find((id) => resources[id].Type === 'AWS::EC2::SecurityGroup' && id !== group)!;
  delete resources[required].Properties.GroupDescription;
  const dependent = ids.find((id) => resources[id].Type === 'AWS::KMS::Key')!;
  resources[dependent].DependsOn = [...[resources[dependent].DependsOn ?? []].flat(), 'NoSuchResource'];
  t.Parameters = { ...t.Parameters, PlantedUnused: { Type: 'String' } };
  const vpc = ids.find((id) => resources[id].Type === 'AWS::EC2::VPC')!;
  t.Outputs = { ...t.Outputs, PlantedOutput: { Value: { 'Fn::GetAtt': [vpc, 'NoSuchAttribute'] } } };
  writeFileSync(file, JSON.stringify(t, null, 1));
  return { file, group, readers, required, dependent, vpc, changed: [group, required, dependent] };
}

/**
 * The schema pass over one small template twice, the first copy named in its judges file with one
 * of its two resources: each copy's findings (rule and place), kept under the template's content.
 * The judged resource lacks a required property and asks the other, a VPC with a misspelled
 * property, for an attribute it lacks.
 */
async function judgedOnly(work: string): Promise<{ judged: string[]; whole: string[] }> {
  const template = JSON.stringify({
    Resources: {
      Judged: { Type: 'AWS::EC2::SecurityGroup', Properties: { VpcId: { 'Fn::GetAtt': ['Named', 'NoSuchAttribute'] } } },
      Named: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.0.0.0/16', EnableDnsHostname: true } },
    },
  });
  const kept = join(lintCacheDir(), `judged-only-${createHash('sha256').update(template).digest('hex').slice(0, 32)}.json`);
  if (!existsSync(kept)) {
    const [judged, whole, judges] = ['judged-only', 'whole', 'judged-only-judges'].map((n) => join(work, `${n}.json`));
    for (const f of [judged, whole]) writeFileSync(f, template);
    writeFileSync(judges, JSON.stringify({ [judged]: ['Judged'] }));
    const found = await cfnLint('schema', [judged, whole], judges);
    const of = (f: string) =>
      found
        .filter((m) => m.Filename === f)
        .map((m) => `${m.Rule.Id} ${m.Location.Path.join('/')}`)
        .sort();
    keep(kept, { judged: of(judged), whole: of(whole) });
  }
  return JSON.parse(readFileSync(kept, 'utf8'));
}

/**
 * One plain cfn-lint run over `cfnLintFile`, one plain checkov run over `checkovFile`, and every
 * Control Tower rule file over `controlTowerFile`, kept under their contents: the reference the
 * units are held to.
 */
async function plainLint(cfnLintFile: string, checkovFile: string, controlTowerFile: string) {
  const file = join(lintCacheDir(), `plain-${[cfnLintFile, checkovFile, controlTowerFile].map(contentHash).join('-')}.json`);
  if (!existsSync(file)) {
    const [cfn, ck, ct] = await Promise.all([
      cfnLint('plain', [cfnLintFile]),
      checkov([checkovFile]),
      guard(
        controlTowerRuleFiles().map((r) => r.file),
        [controlTowerFile],
      ),
    ]);
    const placed = (rs: CheckovResult[]) => rs.map((r) => `${r.check_id} ${r.resource}`).sort();
    const passed = (ck.results as Record<string, CheckovResult[] | undefined>).passed_checks ?? [];
    const reference = {
      cfnLint: cfn.map(said).sort(),
      checkov: {
        failed: placed(ck.results.failed_checks),
        skipped: placed(ck.results.skipped_checks),
        resources: new Set([...ck.results.failed_checks, ...ck.results.skipped_checks, ...passed].map((r) => r.resource)).size,
      },
      controlTower: ct.get(controlTowerFile)!,
    };
    // A reference that judged nothing (its file gone, a tool that read nothing) is no reference: never kept.
    if (reference.checkov.resources === 0 || reference.cfnLint.length === 0 || reference.controlTower.length === 0)
      throw new Error(`the plain lint runs judged nothing: ${JSON.stringify(reference).slice(0, 300)}`);
    writeFileSync(file, JSON.stringify(reference));
  }
  return JSON.parse(readFileSync(file, 'utf8')) as {
    cfnLint: string[];
    checkov: { failed: string[]; skipped: string[]; resources: number };
    controlTower: string[];
  };
}

/** Every template and its broken controls, linted (or read from earlier runs), as one run's results. */
async function runLinters(work: string): Promise<LintResults> {
  const all = assemblies();
  // The first VPC with a misspelled property (cfn-lint) and its flow-log group without its key (checkov).
  const first = JSON.parse(readFileSync(all[0].template, 'utf8'));
  const vpcOf = (resources: Record<string, any>) => Object.values(resources).find((r) => r.Type === 'AWS::EC2::VPC')!;
  const [flowLogGroupId] = Object.entries(first.Resources as Record<string, any>).find(
    ([, r]) => r.Type === 'AWS::Logs::LogGroup' && r.Metadata?.['aws:cdk:path']?.endsWith('/RejectedTrafficLogs/Resource'),
  )!;
  const badCfnLint = broken(first, join(work, 'bad-cfn-lint.template.json'), (r) => (vpcOf(r).Properties.EnableDnsHostname = true));
  const badCheckov = broken(first, join(work, 'bad-checkov.template.json'), (r) => delete r[flowLogGroupId].Properties.KmsKeyId);
  // The first Aurora cluster without its log export (CT.RDS.PR.25).
  const [loggedClusterId] = Object.entries(first.Resources as Record<string, any>).find(([, r]) => r.Type === 'AWS::RDS::DBCluster')!;
  const badControlTower = broken(first, join(work, 'bad-control-tower.template.json'), (r) => delete r[loggedClusterId].Properties.EnableCloudwatchLogsExports);
  const planted = plant(first, join(work, 'planted.template.json'));
  const files = [...all.flatMap((a) => a.templates), badCfnLint, badCheckov, badControlTower];
  const [linted, reference] = await Promise.all([lintTemplates([...files, planted.file], work), plainLint(planted.file, badCheckov, badControlTower)]);
  const at = (f: string) => linted.get(f)!;
  const lines = files.flatMap((f) => at(f).cfnLint.map((l) => `${f}: ${l}`));
  const status = lines.reduce((bits, l) => bits | (CFN_LINT_LEVEL[/^\S+: ([EWI])\d{4} /.exec(l)?.[1] ?? ''] ?? 0), 0);
  const here = (f: string) => (r: CheckovResult) => ({ ...r, file_abs_path: f });
  return {
    cfnLint: { status, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' },
    checkov: {
      summary: { resource_count: files.reduce((n, f) => n + at(f).checkov.resources, 0) },
      results: {
        failed_checks: files.flatMap((f) => at(f).checkov.failed.map(here(f))),
        skipped_checks: files.flatMap((f) => at(f).checkov.skipped.map(here(f))),
        parsing_errors: [],
      },
    },
    badCfnLint,
    badCheckov,
    flowLogGroupId,
    controlTower: new Map(files.map((f) => [f, at(f).controlTower])),
    badControlTower,
    loggedClusterId,
    resourceTypes: [
      ...new Set(
        [...files.map((f) => JSON.parse(readFileSync(f, 'utf8'))), { Resources: { P: PLACEHOLDER } }].flatMap((t) =>
          Object.values<{ Type: string }>(t.Resources).map((r) => r.Type),
        ),
      ),
    ].sort(),
    linted,
    planted,
    reference,
  };
}

/** How long a test waits for the linters: a hang's limit (a cold run takes about 3 minutes on a quiet 2-core machine), not a speed test. */
const LINT_TIMEOUT = 1_800_000;

export function lintSuite(): void {
  const work = mkdtempSync(join(tmpdir(), 'lint-'));
  const lints = runLinters(work);
  // Awaited by the tests below; a rejection nobody awaited yet must not crash the worker.
  lints.catch(() => undefined);
  // Not before the linters end (a run of only some tests ends first): they read the templates in it.
  afterAll(async () => {
    await lints.catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }, LINT_TIMEOUT);

  const reports = () =>
    assemblies().map((a) => ({
      context: a.context,
      plugins: JSON.parse(readFileSync(join(a.outdir, 'validation-report.json'), 'utf8')).pluginReports as any[],
    }));

  test('every variant is linted: each scenario, renamed (envName), unprotected, and each fleet state', () => {
    expect(assemblies().flatMap((a) => a.templates)).toHaveLength(2 * CACHED_VARIANTS.length);
  });

  test('CDK validation and cdk-nag find nothing unacknowledged', () => {
    for (const { context, plugins } of reports()) {
      expect(plugins.map((p) => p.pluginName).sort()).toEqual(['AwsSolutions', 'CloudFormation Validate']);
      for (const plugin of plugins)
        expect({ ...context, plugin: plugin.pluginName, violations: plugin.violations }).toEqual({ ...context, plugin: plugin.pluginName, violations: [] });
    }
  });

  test("CDK validation acknowledges only the pinned-zone rule, and the shell expansions of the schema mover's command", () => {
    for (const { plugins } of reports()) {
      const cfn = plugins.find((p) => p.pluginName === 'CloudFormation Validate');
      const rules = [...new Set(cfn.suppressedViolations.map((v: { ruleName: string }) => v.ruleName))].sort();
      expect(rules.filter((r) => r !== 'E1029')).toEqual(['W3010']);
      for (const v of cfn.suppressedViolations.filter((x: { ruleName: string }) => x.ruleName === 'E1029'))
        for (const c of v.violatingConstructs) expect(c.constructPath).toMatch(/\/SchemaMover\/Task\/Resource$/);
    }
  });

  test('every cdk-nag acknowledgement names its rule and resource and gives a reason', () => {
    for (const { context, plugins } of reports()) {
      const nag = plugins.find((p) => p.pluginName === 'AwsSolutions');
      expect(nag.suppressedViolations.length).toBeGreaterThan(0);
      for (const v of nag.suppressedViolations) {
        expect({ ...context, rule: v.ruleName, acknowledgedId: v.acknowledgedId }).toEqual({
          ...context,
          rule: v.ruleName,
          acknowledgedId: expect.stringContaining(v.ruleName),
        });
        expect(v.violatingConstructs.length).toBeGreaterThan(0);
        expect({ rule: v.ruleName, reason: v.reason.length >= 60 }).toEqual({ rule: v.ruleName, reason: true });
      }
    }
  });

  /** cfn-lint's parseable lines, by whether they name the broken control. */
  const cfnLintLines = async () => {
    const { cfnLint: r, badCfnLint } = await lints;
    const lines = r.stdout.split('\n').filter(Boolean);
    return { r, control: lines.filter((l) => l.startsWith(`${badCfnLint}:`)), others: lines.filter((l) => !l.startsWith(`${badCfnLint}:`)) };
  };

  test(
    'cfn-lint reports 0 errors and 0 warnings on every template (data and observability stacks)',
    async () => {
      const { r, others } = await cfnLintLines();
      expect(others).toEqual([]);
      expect(r.stderr).toBe('');
    },
    LINT_TIMEOUT,
  );

  test(
    'cfn-lint is able to fail',
    async () => {
      const { r, control } = await cfnLintLines();
      expect(r.status).not.toBe(0);
      expect(control.join('\n')).toMatch(/E3002.*EnableDnsHostname/);
    },
    LINT_TIMEOUT,
  );

  test(
    'cfn-lint judging each resource once, in two passes, reports what one plain run reports: a copy planted with a finding of each kind',
    async () => {
      const { linted, planted, reference } = await lints;
      const ours = [...linted.get(planted.file)!.cfnLint].sort();
      expect(ours).toEqual(reference.cfnLint);
      // Each plant is found (so the comparison can fail), by the rule and at the place it should be.
      const at = (rule: string, ...path: string[]) =>
        expect({ rule, path, found: ours.some((l) => l.startsWith(`${rule} ${path.join('/')}`)) }).toEqual({ rule, path, found: true });
      at('E3003', 'Resources', planted.required, 'Properties');
      for (const reader of planted.readers) at('E1010', 'Resources', reader);
      at('E3005', 'Resources', planted.dependent, 'DependsOn');
      at('W2001', 'Parameters', 'PlantedUnused');
      at('E6101', 'Outputs', 'PlantedOutput');
    },
    LINT_TIMEOUT,
  );

  test(
    "cfn-lint's schema pass validates only the resources a unit judges, the others still there for what those name",
    async () => {
      const { judged, whole } = await judgedOnly(work);
      // The judged resource's own finding, and its Fn::GetAtt read against the other's type; nothing on the other.
      expect(judged).toEqual(['E1010 Resources/Judged/Properties/VpcId/Fn::GetAtt/1', 'E3003 Resources/Judged/Properties']);
      // A template the judges file does not name is validated whole: the other's finding too.
      expect(whole).toEqual([...judged, 'E3002 Resources/Named/Properties/EnableDnsHostname'].sort());
    },
    LINT_TIMEOUT,
  );

  test(
    "a finding planted in one scenario's copy is reported for that copy only, and what the plant left alone is judged once",
    async () => {
      const { linted, planted } = await lints;
      const scenario = assemblies()[0].template;
      expect(linted.get(scenario)!.cfnLint).toEqual([]);
      expect(linted.get(planted.file)!.cfnLint.length).toBeGreaterThanOrEqual(5);
      const [mine, theirs] = [planted.file, scenario].map((f) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, any>);
      const [ours, scenarios] = [mine, theirs].map(resourceKeys);
      const rejudged = [...ours].filter(([id, key]) => scenarios.get(id) !== key).map(([id]) => id);
      // The planted resources, and those naming one of them, have keys of their own; every other shares the scenario's.
      const naming = Object.keys(mine.Resources).filter((id) => planted.changed.some((c) => namesIn(mine.Resources[id]).has(c)));
      expect(rejudged.sort()).toEqual([...new Set([...planted.changed, ...naming])].sort());
      expect(naming).toEqual(expect.arrayContaining(planted.readers));
      expect(rejudged.length).toBeLessThan(ours.size / 4);
    },
    LINT_TIMEOUT,
  );

  test(
    'checkov judging each resource once reports what one plain run reports, on its control',
    async () => {
      const { linted, badCheckov, reference } = await lints;
      const ours = linted.get(badCheckov)!.checkov;
      const placed = (rs: CheckovResult[]) => rs.map((r) => `${r.check_id} ${r.resource}`).sort();
      expect({ failed: placed(ours.failed), skipped: placed(ours.skipped), resources: ours.resources }).toEqual(reference.checkov);
      expect(reference.checkov.failed.length).toBeGreaterThan(0);
    },
    LINT_TIMEOUT,
  );

  test(
    'the Control Tower rules judging each resource once, by the rule files naming its types, report what every rule file reports on the whole template: their control',
    async () => {
      const { controlTower: ct, badControlTower, reference } = await lints;
      expect(ct.get(badControlTower)).toEqual(reference.controlTower);
      expect(reference.controlTower.length).toBeGreaterThan(1);
    },
    LINT_TIMEOUT,
  );

  const checkovFailures = async () => {
    const { checkov: c, badCheckov } = await lints;
    const failed = c.results.failed_checks;
    return { ...c, control: failed.filter((f) => f.file_abs_path === badCheckov), others: failed.filter((f) => f.file_abs_path !== badCheckov) };
  };

  test(
    'checkov finds 0 failed checks on every template; each skip is an entry of checkov-skips.yaml',
    async () => {
      const { summary, results, others } = await checkovFailures();
      expect(results.parsing_errors).toEqual([]);
      expect(others.map((f) => `${f.check_id} ${f.resource} (${f.file_abs_path})`)).toEqual([]);
      expect(summary.resource_count).toBeGreaterThan(0);
      const listed = new Set(loadCheckovSkips().map((s) => `${s.check}: ${s.reason}`));
      expect(results.skipped_checks.length).toBeGreaterThan(0);
      for (const s of results.skipped_checks)
        expect(listed.has(`${s.check_id}: ${s.check_result.suppress_comment}`) ? s.check_id : `${s.check_id} on ${s.resource}`).toBe(s.check_id);
    },
    LINT_TIMEOUT,
  );

  /** Every rule of the pinned Control Tower rule set, by its name: the control it implements (`[CT.X.PR.n]` in its messages). */
  const controlOfRule = (): Map<string, string> => {
    const out = new Map<string, string>();
    for (const dir of readdirSync(CT_RULES))
      for (const file of readdirSync(join(CT_RULES, dir))) {
        const text = readFileSync(join(CT_RULES, dir, file), 'utf8');
        const rule = /Rule Identifier:\s*#\s*(\S+)/.exec(text)?.[1];
        const control = /\[(CT\.[A-Z0-9]+\.PR\.\d+)\]/.exec(text)?.[1];
        if (rule && control) out.set(rule, control);
      }
    return out;
  };

  /** A template's resources' Control Tower acknowledgements, as "<rule> <logical id>". */
  const acknowledgedIn = (file: string): Map<string, ControlTowerAcknowledgement> => {
    const resources = JSON.parse(readFileSync(file, 'utf8')).Resources as Record<string, any>;
    const out = new Map<string, ControlTowerAcknowledgement>();
    for (const [id, r] of Object.entries(resources))
      for (const a of (r.Metadata?.[CONTROL_TOWER_METADATA] ?? []) as ControlTowerAcknowledgement[]) out.set(`${a.rule} ${id}`, a);
    return out;
  };

  /** "<rule> <construct path below the stack>" for a finding or acknowledgement of `file`: the same resource in every variant. */
  const described = (file: string) => {
    const resources = JSON.parse(readFileSync(file, 'utf8')).Resources as Record<string, any>;
    return (entry: string) => {
      const [rule, id] = entry.split(' ');
      const path = (resources[id]?.Metadata?.['aws:cdk:path'] as string | undefined)?.split('/').slice(1).join('/');
      return `${rule} ${path ?? id}`;
    };
  };

  /** Findings no acknowledgement on their resource covers, and acknowledgements no finding needs, over the given templates. */
  const controlTowerAudit = async (which: (file: string) => boolean) => {
    const { controlTower: ct } = await lints;
    const unacknowledged = new Set<string>();
    const stale = new Set<string>();
    for (const [file, findings] of ct) {
      if (!which(file)) continue;
      const acks = acknowledgedIn(file);
      const say = described(file);
      for (const f of findings) if (!acks.has(f)) unacknowledged.add(say(f));
      for (const a of acks.keys()) if (!findings.includes(a)) stale.add(say(a));
    }
    return { unacknowledged: [...unacknowledged].sort(), stale: [...stale].sort() };
  };
  const linted = async (file: string) => {
    const { badCheckov, badCfnLint, badControlTower } = await lints;
    return ![badCheckov, badCfnLint, badControlTower].includes(file);
  };

  test(
    "AWS Control Tower's proactive controls (cfn-guard, the rules AWS ships, pinned): every finding is acknowledged on its resource, and every acknowledgement answers a finding",
    async () => {
      const { controlTower: ct } = await lints;
      const files = new Set<string>();
      for (const f of ct.keys()) if (await linted(f)) files.add(f);
      expect(await controlTowerAudit((f) => files.has(f))).toEqual({ unacknowledged: [], stale: [] });
    },
    LINT_TIMEOUT,
  );

  test(
    'every Control Tower acknowledgement names the control its rule implements and gives a reason',
    async () => {
      const { controlTower: ct } = await lints;
      const controls = controlOfRule();
      expect(controls.size).toBeGreaterThan(200);
      for (const [control, rule] of Object.entries(CONTROL_TOWER_RULES)) expect({ rule, control: controls.get(rule) }).toEqual({ rule, control });
      const used = new Set<string>();
      for (const file of ct.keys())
        for (const a of acknowledgedIn(file).values()) {
          used.add(a.control);
          expect({ rule: a.rule, control: a.control, reason: a.reason.length >= 60 }).toEqual({ rule: a.rule, control: controls.get(a.rule), reason: true });
        }
      // No entry of the table is left unused.
      expect([...used].sort()).toEqual(Object.keys(CONTROL_TOWER_RULES).sort());
    },
    LINT_TIMEOUT,
  );

  test(
    'the acknowledgement check is able to fail: a finding on a resource without its acknowledgement is named',
    async () => {
      const { badControlTower, loggedClusterId } = await lints;
      expect((await controlTowerAudit((f) => f === badControlTower)).unacknowledged).toContain(
        described(badControlTower)(`rds_cluster_logging_enabled_check ${loggedClusterId}`),
      );
    },
    LINT_TIMEOUT,
  );

  test(
    'each Control Tower rule file fails nothing on a resource of any type it does not name: leaving it out where none of its types is present is the same judgement',
    async () => {
      const { resourceTypes } = await lints;
      const all = controlTowerRuleFiles();
      expect(all.length).toBeGreaterThan(200);
      // Rule files by the types present that they do not name: one guard run per set.
      const sets = new Map<string, { types: string[]; files: string[] }>();
      for (const r of all) {
        const types = resourceTypes.filter((t) => !r.types.includes(t));
        const set = sets.get(types.join()) ?? { types, files: [] };
        set.files.push(r.file);
        sets.set(types.join(), set);
      }
      // Kept like every lint result: the rule files are the pinned package's, which the cache's key names.
      const cache = lintCacheDir();
      for (const [i, { types, files }] of [...sets.values()].entries()) {
        const template = JSON.stringify({ Resources: Object.fromEntries(types.map((t, n) => [`R${n}`, { Type: t, Properties: {} }])) });
        const kept = join(
          cache,
          `absent-${createHash('sha256')
            .update(template)
            .update(files.map((f) => relative(CT_RULES, f)).join())
            .digest('hex')
            .slice(0, 32)}.json`,
        );
        let findings: string[];
        if (existsSync(kept)) findings = JSON.parse(readFileSync(kept, 'utf8'));
        else {
          const file = join(work, `absent-${i}.template.json`);
          writeFileSync(file, template);
          findings = (await guard(files, [file])).get(file)!;
          keep(kept, findings);
        }
        expect({ types, findings }).toEqual({ types, findings: [] });
      }
    },
    LINT_TIMEOUT,
  );

  test(
    'that check is able to fail: a rule file given a bare resource of its own type fails it',
    async () => {
      const rds = controlTowerRuleFiles().find((r) => r.file.endsWith('ct-rds-pr-25.guard'))!;
      const file = join(work, 'bare-cluster.template.json');
      writeFileSync(file, JSON.stringify({ Resources: { Cluster: { Type: rds.types[0], Properties: { Engine: 'aurora-postgresql' } } } }));
      expect((await guard([rds.file], [file])).get(file)).toEqual([`rds_cluster_logging_enabled_check Cluster`]);
    },
    LINT_TIMEOUT,
  );

  test(
    'the Control Tower rules are able to fail',
    async () => {
      const { controlTower: ct, badControlTower, loggedClusterId } = await lints;
      expect(ct.get(badControlTower)).toContain(`rds_cluster_logging_enabled_check ${loggedClusterId}`);
    },
    LINT_TIMEOUT,
  );

  test(
    'checkov is able to fail',
    async () => {
      const { control } = await checkovFailures();
      const { flowLogGroupId } = await lints;
      expect(control.map((f) => `${f.check_id} ${f.resource}`)).toEqual([`CKV_AWS_158 AWS::Logs::LogGroup.${flowLogGroupId}`]);
    },
    LINT_TIMEOUT,
  );
}
