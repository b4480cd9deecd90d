import { z } from './zod';

/*
 * The naming rules AWS applies to the physical names this app gives its resources, each in the
 * service's own words (its API reference's "Constraints"), so that a name AWS would refuse an
 * hour into a deploy is refused by config first, with the rule that refuses it. Resources the
 * app leaves to CloudFormation to name (roles, log groups, parameter groups) need none.
 */

interface NameRule {
  /** What the name is, as the message calls it. */
  readonly what: string;
  /** The service's rule, as its documentation states it. */
  readonly rule: string;
  readonly maxLength: number;
  readonly valid: (name: string) => boolean;
}

/** DNS labels: 1-63 of a-z, 0-9 and inner hyphens. */
const dnsLabel = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const rdsIdentifier = (name: string) => /^[a-z][a-z0-9-]{0,62}$/.test(name) && !name.endsWith('-') && !name.includes('--');

export const AWS_NAME_RULES = {
  stackName: {
    what: 'CloudFormation stack name',
    rule: '1-128 letters, digits and hyphens, starting with a letter',
    maxLength: 128,
    valid: (n) => /^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(n),
  },
  dbClusterIdentifier: {
    what: 'Aurora DB cluster identifier',
    rule: '1-63 lowercase letters, digits or hyphens; first a letter; no hyphen at the end and no two in a row',
    maxLength: 63,
    valid: rdsIdentifier,
  },
  dbInstanceIdentifier: {
    what: 'Aurora DB instance identifier',
    rule: '1-63 lowercase letters, digits or hyphens; first a letter; no hyphen at the end and no two in a row',
    maxLength: 63,
    valid: rdsIdentifier,
  },
  secretName: {
    what: 'Secrets Manager secret name',
    rule: '1-512 of A-Z, a-z, 0-9 and / _ + = . @ -',
    maxLength: 512,
    valid: (n) => /^[A-Za-z0-9/_+=.@-]{1,512}$/.test(n),
  },
  ssmParameterName: {
    what: 'SSM parameter name',
    rule: 'a-z, A-Z, 0-9, _ . - and / between levels; at most 15 levels; not beginning with "aws" or "ssm" (in any case); at most 1011 characters with its ARN',
    // arn:aws:ssm:<region>:<account>:parameter takes about 50 of the 1011.
    maxLength: 950,
    valid: (n) =>
      /^\/?[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(n) && n.split('/').filter(Boolean).length <= 15 && !/^\/?(aws|ssm)/i.test(n) && n.length <= 950,
  },
  dynamoDbTable: {
    what: 'DynamoDB table name',
    rule: '3-255 of A-Z, a-z, 0-9, _ . -',
    maxLength: 255,
    valid: (n) => /^[A-Za-z0-9_.-]{3,255}$/.test(n),
  },
  openSearchDomain: {
    what: 'OpenSearch domain name',
    rule: '3-28 lowercase letters, digits and hyphens, starting with a letter',
    maxLength: 28,
    valid: (n) => /^[a-z][a-z0-9-]{2,27}$/.test(n),
  },
  ecsCluster: {
    what: 'ECS cluster name',
    rule: '1-255 letters, digits, hyphens and underscores',
    maxLength: 255,
    valid: (n) => /^[A-Za-z0-9_-]{1,255}$/.test(n),
  },
  prometheusAlias: {
    what: 'Managed Prometheus workspace alias',
    rule: '1-100 characters',
    maxLength: 100,
    valid: (n) => n.length >= 1 && n.length <= 100,
  },
  dnsName: {
    what: 'DNS name',
    rule: 'labels of 1-63 lowercase letters, digits and inner hyphens, at least two, 253 characters in all',
    maxLength: 253,
    valid: (n) => n.length <= 253 && n.split('.').length >= 2 && n.split('.').every((l) => dnsLabel.test(l)),
  },
  dashboard: {
    what: 'CloudWatch dashboard name',
    rule: '1-255 of A-Z, a-z, 0-9, - and _',
    maxLength: 255,
    valid: (n) => /^[A-Za-z0-9_-]{1,255}$/.test(n),
  },
  snsTopic: {
    what: 'SNS topic name',
    rule: '1-256 of A-Z, a-z, 0-9, - and _',
    maxLength: 256,
    valid: (n) => /^[A-Za-z0-9_-]{1,256}$/.test(n),
  },
  ecrRepository: {
    what: 'ECR repository name',
    rule: '2-256 lowercase letters and digits, in parts joined by one of . _ - and paths by /',
    maxLength: 256,
    valid: (n) => n.length >= 2 && n.length <= 256 && /^(?:[a-z0-9]+(?:[._-][a-z0-9]+)*\/)*[a-z0-9]+(?:[._-][a-z0-9]+)*$/.test(n),
  },
} as const satisfies Record<string, NameRule>;

export type AwsNameKind = keyof typeof AWS_NAME_RULES;

/** Why AWS would refuse `name` as a `kind`, in one clause; undefined when it would not. */
export function awsNameProblem(kind: AwsNameKind, name: string): string | undefined {
  const r: NameRule = AWS_NAME_RULES[kind];
  return r.valid(name) ? undefined : `"${name}" is not a valid ${r.what} (AWS: ${r.rule})`;
}

/** A config field that holds a physical name of `kind`. */
export const awsName = (kind: AwsNameKind) =>
  z.string().check((ctx) => {
    const problem = awsNameProblem(kind, ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
  });

/** DBInstanceIdentifier of a cluster's writer. */
export const writerInstanceIdentifier = (clusterIdentifier: string): string => `${clusterIdentifier}-writer`;
/** DBInstanceIdentifier of a provisioned cluster's n-th reader (from 1). */
export const readerInstanceIdentifier = (clusterIdentifier: string, n: number): string => `${clusterIdentifier}-reader-${n}`;

/** A FOLIO module's routes in the module zone: the stack's CNAME records, which an online move repoints. */
export const moduleRouteNames = (zoneName: string, module: string): { readonly writer: string; readonly reader: string } => ({
  writer: `${module}.${zoneName}`,
  reader: `${module}-reader.${zoneName}`,
});

/**
 * The names an environment gives AWS after envName has prefixed them, each with its rule. The
 * first that AWS would refuse is named; when envName made it so, the message says by how much
 * envName must shrink.
 */
export function resolvedNameProblem(names: readonly (readonly [AwsNameKind, string])[], envName: string | undefined): string | undefined {
  for (const [kind, name] of names) {
    const problem = awsNameProblem(kind, name);
    if (!problem) continue;
    const r: NameRule = AWS_NAME_RULES[kind];
    if (envName && name.includes(envName) && name.length > r.maxLength) {
      const longest = envName.length - (name.length - r.maxLength);
      const valid = longest >= 1 ? `an envName of at most ${longest} characters` : `a shorter ${r.what} in config`;
      return `envName "${envName}" makes the ${r.what} "${name}" longer than ${r.maxLength} characters (AWS: ${r.rule}); valid: ${valid}`;
    }
    return envName ? `with envName "${envName}", ${problem}` : problem;
  }
  return undefined;
}
