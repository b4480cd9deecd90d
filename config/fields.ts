import { z } from './zod';
import { AURORA_POSTGRES_INSTANCE_CLASSES } from './aurora-instance-classes';
import { awsName } from './aws-names';

/*
 * Field rules shared by the FOLIO and Temporal sections of the schema. Each message names
 * the bad value and what is valid: it is shown to the user as is.
 */

/** Physical names: stable identifiers, never derived from a scenario. */
export const physicalName = (pattern: RegExp, what: string) => z.string().regex(pattern, { error: (iss) => `"${String(iss.input)}" is not a valid ${what}` });

export const stackName = awsName('stackName');
export const account = physicalName(/^\d{12}$/, '12-digit AWS account id');
export const region = physicalName(/^[a-z]{2}(-[a-z]+)+-\d$/, 'AWS region');
export const vpcCidr = physicalName(/^\d{1,3}(\.\d{1,3}){3}\/(1[6-9]|2[0-4])$/, 'VPC CIDR (/16 to /24)');
export const ipv4Cidr = physicalName(/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/, 'IPv4 CIDR');
export const scenarioName = physicalName(/^[a-z][a-z0-9-]{0,40}$/, 'scenario name (lower case, digits, dashes)');

/** Availability zones of the environment's region, at least `min` of them. */
export const availabilityZones = (min: number, why: string) =>
  z.array(z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d[a-z]$/, { error: (iss) => `"${String(iss.input)}" is not an availability zone` })).min(min, { error: why });

/** A Go duration as Temporal and the DSQL plugin parse it: 30s, 55m, 1h, 0s. */
export const goDuration = z.string().regex(/^(0|\d+(ms|s|m|h))$/, {
  error: (iss) => `"${String(iss.input)}" is not a duration (valid: a whole number with ms, s, m or h, e.g. 30s, 55m)`,
});

const UNIT_SECONDS: Readonly<Record<string, number>> = { h: 3600, m: 60, s: 1, ms: 0.001 };

/**
 * Seconds in a Go duration: one unit as config writes them (goDuration), several as Go and the
 * report write a span (1h30m, 2m30s), or Go's bare 0; NaN for anything else.
 */
export function durationSeconds(d: string): number {
  if (d === '0') return 0;
  if (!/^(\d+(ms|s|m|h))+$/.test(d)) return NaN;
  let seconds = 0;
  for (const [, n, unit] of d.matchAll(/(\d+)(ms|s|m|h)/g)) seconds += Number(n) * UNIT_SECONDS[unit];
  return seconds;
}

/** What a duration a user writes looks like: on the command line (--timeout, --duration) and in a campaign's steps alike. */
export const SPAN_GRAMMAR = 'a duration in h, m and s, in that order, such as 90s, 30m, 2h or 1h30m';

/**
 * Seconds in a duration as a user writes one (SPAN_GRAMMAR), or Go's bare 0; NaN for anything
 * else. No milliseconds: everything a user times here is counted in seconds.
 */
export function spanSeconds(d: string): number {
  if (d === '0') return 0;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(d);
  if (!m || d === '') return NaN;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** A positive size in steps of `step` (vCPU in eighths, GiB in quarters). */
export const stepped = (unit: string, step: number, max: number) =>
  z.number({ error: `must be a number of ${unit}` }).check((ctx) => {
    const v = ctx.value;
    if (!(v > 0 && v <= max) || !Number.isInteger(v / step))
      ctx.issues.push({ code: 'custom', input: v, message: `${v} ${unit} is not valid (valid: ${step} to ${max} in steps of ${step})` });
  });

const ACU_GRID = 'valid: 0 to 256 in steps of 0.5';

/** Aurora Serverless v2 capacity in ACUs. */
export const acu = z.number({ error: `must be a number of ACUs (${ACU_GRID})` }).check((ctx) => {
  const v = ctx.value;
  if (v < 0 || v > 256) {
    ctx.issues.push({ code: 'custom', input: v, message: `${v} ACU is outside 0-256 (${ACU_GRID})` });
  } else if (!Number.isInteger(v * 2)) {
    ctx.issues.push({ code: 'custom', input: v, message: `${v} ACU is off the 0.5 grid (${ACU_GRID})` });
  }
});

/** An Aurora PostgreSQL DB instance class (db.<family>.<size>) of config/aurora-instance-classes.ts. */
export const auroraInstanceClass = z.string().check((ctx) => {
  const m = /^db\.([a-z0-9]+)\.([a-z0-9]+)$/.exec(ctx.value);
  const families = Object.keys(AURORA_POSTGRES_INSTANCE_CLASSES);
  if (!m) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: `"${ctx.value}" is not an instance class (expected db.<family>.<size>, families: ${families.join(', ')})`,
    });
    return;
  }
  const sizes = AURORA_POSTGRES_INSTANCE_CLASSES[m[1]];
  if (!sizes) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: `Aurora PostgreSQL offers no "${m[1]}" family ("${ctx.value}"); valid families: ${families.join(', ')}`,
    });
  } else if (!sizes.includes(m[2])) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: `Aurora PostgreSQL does not offer "${ctx.value}"; valid in ${m[1]}: ${sizes.map((s) => `db.${m[1]}.${s}`).join(', ')}`,
    });
  }
});

/** Aurora cluster storage: Standard (I/O billed per request) or I/O-Optimized (no I/O charge, dearer compute). */
export const auroraStorageType = z.enum(['aurora', 'aurora-iopt1'], {
  error: (iss) => `storage type "${String(iss.input)}" is not valid (valid: aurora (Standard), aurora-iopt1 (I/O-Optimized))`,
});
export type AuroraStorageType = z.output<typeof auroraStorageType>;

/** SecondsUntilAutoPause's bounds (RDS API, ServerlessV2ScalingConfiguration). */
const AUTO_PAUSE_SECONDS = { min: 300, max: 86_400 } as const;

/**
 * A Serverless v2 ACU range: min <= max, max at least 1. A min of 0 lets the instance pause
 * when no connection has come for `autoPause` (5 minutes to 24 hours); it is said in config,
 * never left to AWS's default, and only where it applies.
 */
export const acuRange = z
  .strictObject({
    min: acu,
    max: acu.refine((v) => v >= 1, { error: (iss) => `max ${String(iss.input)} ACU is below 1 (Aurora's lowest maximum; ${ACU_GRID})` }),
    autoPause: goDuration.optional(),
  })
  .superRefine((r, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message, input: r });
    if (r.min > r.max) problem(`min ${r.min} ACU is above max ${r.max} ACU (min must be <= max)`);
    if (r.min === 0 && r.autoPause === undefined)
      problem(
        `min 0 ACU pauses the cluster when it is idle: say after how long with autoPause (valid: ${AUTO_PAUSE_SECONDS.min / 60}m to ${AUTO_PAUSE_SECONDS.max / 3600}h, e.g. "10m")`,
      );
    if (r.min > 0 && r.autoPause !== undefined)
      problem(`autoPause ${r.autoPause} applies only to a cluster whose min is 0 ACU, and this one's is ${r.min} (valid: min 0, or no autoPause)`);
    if (r.autoPause !== undefined) {
      const seconds = durationSeconds(r.autoPause);
      if (seconds < AUTO_PAUSE_SECONDS.min || seconds > AUTO_PAUSE_SECONDS.max)
        problem(`autoPause ${r.autoPause} is outside what Aurora accepts (valid: ${AUTO_PAUSE_SECONDS.min / 60}m to ${AUTO_PAUSE_SECONDS.max / 3600}h)`);
    }
  });

/** Where a container image comes from. An asset is built by `cdk deploy`, never by synth. */
const ecrImage = { ecr: z.strictObject({ repository: awsName('ecrRepository'), tag: z.string().min(1) }) };
const registryImage = { registry: physicalName(/^[a-z0-9.-]+(:\d+)?\/[^\s]+:[^\s:@]+$/, 'image reference with an explicit tag') };
const assetImage = { asset: z.string().min(1) };
const IMAGE_SOURCES = 'one of { ecr: { repository, tag } }, { registry: "<uri>:<tag>" }, { asset: "<directory with a Dockerfile>" }';
export const imageRefSchema = z.union([z.strictObject(ecrImage), z.strictObject(registryImage), z.strictObject(assetImage)], {
  error: `an image is ${IMAGE_SOURCES}`,
});
export type ImageRef = z.output<typeof imageRefSchema>;

/**
 * The user a container runs as, as ECS's `user` takes it (uid, name, uid:gid, name:group), never
 * root: CT.ECS.PR.3 refuses a task definition without one, and the image decides which exist.
 */
const runAs = z
  .string()
  .regex(/^(\d+|[a-z_][a-z0-9_-]*)(:(\d+|[a-z_][a-z0-9_-]*))?$/, {
    error: (iss) => `user "${String(iss.input)}" is not a user (valid: uid, name, uid:gid or name:group)`,
  })
  .refine((u) => !/^(0|root)(:|$)/.test(u), { error: (iss) => `user "${String(iss.input)}" is root (valid: the image's non-root user, e.g. 1000:1000)` });

/** An image an ECS task runs, with the non-root user it runs as. */
export const taskImageSchema = z.union(
  [z.strictObject({ ...ecrImage, user: runAs }), z.strictObject({ ...registryImage, user: runAs }), z.strictObject({ ...assetImage, user: runAs })],
  { error: `a task's image is ${IMAGE_SOURCES}, each with user: "<uid>:<gid>" (not root)` },
);
export type TaskImage = z.output<typeof taskImageSchema>;
