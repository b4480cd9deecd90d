import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadCatalog, resolveScenario, scenarioNames } from '../../../config';
import type { CommandOutput } from '../shared/cli';
import { writableDir, writeOutput } from '../shared/files';
import { AwsCallScanner, commandsProgram, type AwsCall } from './aws-calls';
import { impliedReasons, policyFor, policyProblems, type PolicyDocument } from './policy-document';

/*
 * `npm run operator-policy`: for each companion command (bin/<command>.ts), the least-privilege
 * IAM policy an operator needs to run it, generated from the AWS calls its code makes, and
 * `cdk deploy`'s, through the bootstrap's roles. Read from the project's own source, so it
 * needs a checkout, not an account.
 */

export interface OperatorPolicyOptions {
  /** One command's policy, as JSON. */
  readonly command?: string;
  /** Every command's policy and the page that lists them, written into this directory. */
  readonly write?: string;
  readonly json?: boolean;
}

const ROOT = resolve(__dirname, '../../..');
const NOT_COMMANDS = new Set(['app.ts', 'preload.ts']);
/** `cdk deploy`, as a campaign drives it: the same toolkit, the same bootstrap roles. */
const CDK_DEPLOY = { name: 'cdk-deploy', file: 'lib/campaign/toolkit-deploy.ts', fn: 'deployScenario' };

export interface OperatorPolicy {
  readonly command: string;
  readonly calls: AwsCall[];
  /** None for a command that calls no AWS API. */
  readonly document?: PolicyDocument;
}

/** The companion commands (bin/<command>.ts), then `cdk deploy`: the names a policy is asked for by. */
function commandNames(root: string): string[] {
  const commands = readdirSync(join(root, 'bin'))
    .filter((f) => f.endsWith('.ts') && !NOT_COMMANDS.has(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  return [...commands, CDK_DEPLOY.name];
}

/** Every command's policy, then `cdk deploy`'s (or only `only`'s); refused if any fails the policy linter. */
export async function operatorPolicies(root = ROOT, only?: string): Promise<OperatorPolicy[]> {
  const commands = commandNames(root)
    .filter((c) => c !== CDK_DEPLOY.name && (only === undefined || c === only))
    .map((c) => `${c}.ts`);
  const deploy = only === undefined || only === CDK_DEPLOY.name;
  const roots = [...commands.map((f) => join(root, 'bin', f)), ...(deploy ? [join(root, CDK_DEPLOY.file)] : [])];
  const scanner = new AwsCallScanner(commandsProgram(roots), root);
  const catalog = loadCatalog();
  // Every region a scenario of any family deploys to.
  const regions = [...new Set(scenarioNames(catalog).map((name) => resolveScenario({ scenario: name }).env.region))].sort();
  const of = async (command: string, calls: AwsCall[]): Promise<OperatorPolicy> => {
    if (!calls.length) return { command, calls };
    const document = await policyFor(calls, regions);
    const problems = await policyProblems(document);
    if (problems.length) throw new Error(`the policy of ${command} fails the policy linter: ${problems.join('; ')}`);
    return { command, calls, document };
  };
  const policies = await Promise.all(commands.map((f) => of(f.replace(/\.ts$/, ''), scanner.callsFrom(join(root, 'bin', f)))));
  if (!deploy) return policies;
  return [...policies, await of(CDK_DEPLOY.name, scanner.callsFrom(join(root, CDK_DEPLOY.file), CDK_DEPLOY.fn))];
}

/** The page that lists them (docs/operator-policy/README.md): what each command calls, from where, and its file. */
export function policyPage(policies: readonly OperatorPolicy[]): string {
  const rows = policies.map((p) => {
    const actions = [...new Set(p.calls.map((c) => `\`${c.action}\``))].join(', ') || '-';
    const files = [...new Set(p.calls.map((c) => `\`${c.where.replace(/:\d+$/, '')}\``))].sort().join(', ') || '-';
    const name = p.command === CDK_DEPLOY.name ? '`cdk deploy`' : `\`npm run ${p.command}\``;
    return `| ${name} | ${p.document ? `[${p.command}.json](${p.command}.json)` : 'none: no AWS call'} | ${actions} | ${files} |`;
  });
  return [
    '# Operator policies',
    '',
    'What a person needs to run each command: the least-privilege IAM policy, generated from the AWS',
    "calls the command's code can make (`npm run operator-policy`; a test fails when the code makes a",
    'call its policy here lacks). Each action is granted on the resource types AWS says it takes, in',
    "the regions config deploys to and the caller's own account (`${aws:PrincipalAccount}`); names",
    'are left open, since `-c envName` changes them. An action that takes no resource type is granted',
    'on `*`. Every file here passes the policy linter in `lib/commands/operator-policy/policy-document.ts`',
    '(actions AWS knows, resources of a type the action takes, no `*` where it takes one, condition',
    'keys the action has).',
    '',
    'The policies are proven on the programs too: with `DB_BENCH_AWS_CALL_LOG=<file>` a command',
    "appends each AWS call's action to that file, and every command the integration suite runs",
    'against moto is held to its policy here (`test/support/operator-audit.ts`). The same log audits',
    'a run against a real account.',
    '',
    '| Command | Policy | Actions | Called from |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    'Beyond its own action, a call can need another that AWS checks beside it:',
    '',
    ...impliedReasons().map(([call, action, why]) => `- \`${call}\` adds \`${action}\`: ${why}.`),
    '',
    '`cdk deploy` (and `npm run campaign`, which deploys through the same toolkit) needs only to',
    "assume the bootstrap's deploy and file-publishing roles: CloudFormation then acts as the",
    "bootstrap's execution role. The app looks nothing up, so the lookup role is not needed.",
    '',
  ].join('\n');
}

const policyJson = (doc: PolicyDocument) => `${JSON.stringify(doc, null, 2)}\n`;

export async function runOperatorPolicy(o: OperatorPolicyOptions): Promise<CommandOutput> {
  const given = [o.command !== undefined && '--command', o.write !== undefined && '--write', o.json && '--json'].filter(Boolean);
  if (given.length > 1) throw new ConfigError(`${given.join(' and ')} cannot be combined (valid: one of them, or none to print the page)`);
  if (o.command !== undefined) {
    // Named before anything is read: the scan and the linter take seconds.
    const names = commandNames(ROOT);
    if (!names.includes(o.command)) throw new ConfigError(`--command "${o.command}" is not a command (valid: ${names.join(', ')})`);
    const [p] = await operatorPolicies(ROOT, o.command);
    if (!p.document) return { stdout: `${p.command} makes no AWS call: it needs no policy\n` };
    return { stdout: policyJson(p.document) };
  }
  const policies = await operatorPolicies();
  if (o.json) return { stdout: `${JSON.stringify(Object.fromEntries(policies.map((p) => [p.command, p.document ?? null])), null, 2)}\n` };
  if (o.write !== undefined) {
    const dir = writableDir('--write', o.write);
    for (const p of policies) if (p.document) writeOutput(join(dir, `${p.command}.json`), policyJson(p.document));
    writeOutput(join(dir, 'README.md'), policyPage(policies));
    return { stdout: '' };
  }
  return { stdout: policyPage(policies) };
}
