import { z } from './zod';
import { didYouMean } from './errors';
import { awsName } from './aws-names';
import { engineVersionProblem, loadEngineVersions } from './engine-versions';
import {
  account,
  acu,
  acuRange,
  auroraInstanceClass,
  auroraStorageType,
  availabilityZones,
  imageRefSchema,
  ipv4Cidr,
  physicalName,
  region,
  scenarioName,
  stackName,
  vpcCidr,
} from './fields';
import { folioObservabilitySchema } from './observability-schema';
import { folioSpendingSchema } from './spending-schema';

/*
 * The FOLIO family's schema: its environment, modules and phases. Field rules live on the
 * fields; rules that relate fields to each other or to other tables (module names, routing,
 * cross-schema reads) live in checkFolio, which the catalog's superRefine runs
 * (catalog-schema.ts), so a single parse validates the whole catalog. Each message names the
 * bad value and what is valid: it is shown to the user as is.
 */

export const folioModuleSchema = z.strictObject({
  name: physicalName(/^mod-[a-z0-9-]+$/, 'FOLIO module name (mod-<name>)'),
  short: z.string().min(1),
  framework: z.enum(['rmb', 'spring', 'grails']),
  routable: z.boolean(),
  readsSchemasOf: z.array(z.string()).readonly(),
});

export const folioEnvironmentSchema = z
  .strictObject({
    stackName,
    account: account.optional(),
    region,
    availabilityZones: availabilityZones(2, 'Aurora needs subnets in at least 2 availability zones'),
    vpcCidr,
    clientCidrs: z
      .array(ipv4Cidr)
      .min(1)
      .refine((cidrs) => !cidrs.some((c) => c.endsWith('/0')), {
        error: "clientCidrs must not open the databases to the internet (/0) (valid: the clients' own ranges, e.g. 10.0.0.0/16)",
      }),
    database: z.strictObject({
      engineVersion: physicalName(/^1[3-9]\.\d+$/, 'Aurora PostgreSQL version (major.minor, 13 or later)'),
      port: z.number().int().min(1150).max(65535),
      databaseName: physicalName(/^[a-z][a-z0-9_]{0,62}$/, 'database name'),
      adminUsername: physicalName(/^[a-z][a-z0-9_]{0,62}$/, 'user name'),
      backupRetentionDays: z.number().int().min(1).max(35),
      performanceInsightsRetentionDays: z.union([z.literal(7), z.literal(731)], { error: 'valid: 7 (free tier) or 731' }),
      monitoringIntervalSeconds: z.union(
        [0, 1, 5, 10, 15, 30, 60].map((n) => z.literal(n)),
        {
          error: 'valid: 0, 1, 5, 10, 15, 30, 60',
        },
      ),
      /** Both clusters' storage unless a phase says otherwise (phase.storage). */
      storageType: auroraStorageType,
      primaryReaders: z.number().int().min(0).max(15),
    }),
    names: z.strictObject({
      primaryCluster: awsName('dbClusterIdentifier'),
      offloadCluster: awsName('dbClusterIdentifier'),
      adminSecret: awsName('secretName'),
      moduleSecretPrefix: awsName('secretName'),
      routingParameter: awsName('ssmParameterName'),
      /** The private DNS zone of the modules' routes (`<module>.<zone>`, `<module>-reader.<zone>`). */
      moduleZone: awsName('dnsName'),
    }),
    /** How modules follow a move: the routes' records, and how long an online move waits on them. */
    routing: z.strictObject({
      /** The records' TTL: the longest a resolver keeps an old answer after a switch. */
      ttlSeconds: z.number().int().min(1).max(300),
      /** How long an online move's switch waits for every route to lead to the target (MOVE_ROUTE_TIMEOUT). */
      switchTimeout: z.string().regex(/^[1-9][0-9]*s$/, { error: 'valid: whole seconds, such as 300s' }),
      /** How long no session of a module may reach the source before its fence lifts (MOVE_ROUTE_GRACE). */
      sourceGrace: z.string().regex(/^[1-9][0-9]*s$/, { error: 'valid: whole seconds, such as 30s' }),
    }),
    /** The environment's FOLIO tenants: every module has one schema per tenant (`<tenant>_<module>`). */
    tenants: z
      .array(physicalName(/^[a-z][a-z0-9]{0,30}$/, 'FOLIO tenant id (a-z, 0-9, starting with a letter)'))
      .min(1)
      .refine((t) => new Set(t).size === t.length, {
        error: (iss) => `tenant "${(iss.input as string[]).find((x, i, all) => all.indexOf(x) !== i)}" is listed twice (valid: each tenant once)`,
      }),
    offloadPopulation: z.string().min(20, { error: 'say how the offload cluster was populated' }),
    /** The one-shot task that moves a module's schemas between the clusters (`npm run move`). */
    mover: z.strictObject({
      // A PostgreSQL client image of the engine's major version (pg_dump refuses newer servers).
      image: imageRefSchema,
      vcpu: z.union(
        [0.25, 0.5, 1, 2, 4].map((n) => z.literal(n)),
        { error: 'valid Fargate vCPU: 0.25, 0.5, 1, 2, 4' },
      ),
      memoryGiB: z.number().min(0.5).max(30),
      lockTimeout: z.string().regex(/^[1-9][0-9]*(ms|s|min)$/, { error: 'valid: a PostgreSQL duration such as 500ms, 30s or 2min' }),
      s3PrefixListId: physicalName(/^pl-[0-9a-f]{8,17}$/, 'prefix list id (pl-...)'),
    }),
    observability: folioObservabilitySchema,
    spending: folioSpendingSchema,
  })
  .superRefine((e, ctx) => {
    // The source stays fenced for the grace after the routes settle, all within the switch timeout.
    const [timeout, grace] = [e.routing.switchTimeout, e.routing.sourceGrace].map((d) => Number.parseInt(d, 10));
    if (grace >= timeout)
      ctx.addIssue({
        code: 'custom',
        path: ['routing', 'sourceGrace'],
        message: `sourceGrace ${e.routing.sourceGrace} is not shorter than switchTimeout ${e.routing.switchTimeout} (valid: a grace shorter than the timeout, such as 30s of 300s)`,
        input: e.routing.sourceGrace,
      });
    // pg_dump refuses a server newer than itself; an older server it dumps in the server's terms.
    const image = 'ecr' in e.mover.image ? e.mover.image.ecr.tag : 'registry' in e.mover.image ? e.mover.image.registry.split(':').pop()! : undefined;
    const major = image && /^(\d+)/.exec(image)?.[1];
    const engine = e.database.engineVersion.split('.')[0];
    if (major && major !== engine)
      ctx.addIssue({
        code: 'custom',
        path: ['mover', 'image'],
        message: `mover image tag "${image}" is PostgreSQL ${major}, the engine is ${engine} (valid: a ${engine}.x client)`,
        input: image,
      });
  });

/**
 * What the offload cluster is in a phase: Serverless v2 with an ACU range (PERF-1229), or
 * provisioned instances (PERF-1334's dedicated offload cluster). One cluster either way: a
 * switch changes its writer's class in place (lib/folio/constructs/aurora-pair.ts).
 */
const offloadSchema = z
  .strictObject({
    serverless: acuRange.optional(),
    provisioned: z
      .strictObject({
        instanceClass: auroraInstanceClass,
        /** Readers beside the writer; the modules routed here get DB_HOST_READER when there are any. */
        readers: z.number().int().min(0).max(15),
      })
      .optional(),
  })
  .refine((o) => (o.serverless === undefined) !== (o.provisioned === undefined), {
    error: (iss) =>
      `offload names ${Object.keys(iss.input as object).length ? `both ${Object.keys(iss.input as object).join(' and ')}` : 'neither kind'} (valid: exactly one of { serverless: { min, max } } or { provisioned: { instanceClass, readers } })`,
  });

const crossSchemaAckSchema = z.strictObject({
  module: z.string(),
  readsFrom: z.array(z.string()).min(1),
  reason: z.string().min(20, { error: 'an acknowledgement needs a reason (20 characters or more)' }),
});

const recordedSchema = z.strictObject({
  checkInSec: z.number().positive().optional(),
  checkOutSec: z.number().positive().optional(),
  dataImportMin: z.number().positive().optional(),
  dataExportCustomMin: z.number().positive().optional(),
  dataExportDefaultMin: z.number().positive().optional(),
  /** A Data Export time the report gives without naming the profile. */
  dataExportMin: z.number().positive().optional(),
  serverlessPeakAcu: acu.optional(),
  serverlessCpuPct: z.number().min(0).max(100).optional(),
  provisionedCpuPct: z.number().min(0).max(100).optional(),
  failed: z.literal(true).optional(),
});

export const folioPhaseSchema = z.strictObject({
  name: scenarioName,
  title: z.string().min(1),
  /** Where the report's figures come from: ticket and page. */
  source: z.string().min(10),
  /** The primary cluster's writer (and its readers, environment.database.primaryReaders). */
  primaryInstanceClass: auroraInstanceClass,
  offload: offloadSchema,
  /** Per cluster, when it differs from environment.database.storageType. */
  storage: z.strictObject({ primary: auroraStorageType.optional(), offload: auroraStorageType.optional() }).optional(),
  /** How many tenants the measured environment had (a smaller environment here is a scaled-down rerun; plan and cost say so). */
  tenants: z.number().int().positive(),
  /** The workload's multiple of PTF's standard load (PERF-1334 ran 1x and 3x). */
  loadFactor: z.number().positive(),
  routedToOffload: z.array(z.string()).readonly(),
  crossSchemaAcks: z.array(crossSchemaAckSchema).readonly(),
  dataImportRampUpSeconds: z.number().int().min(0).max(3600),
  sidecar: z.strictObject({ authorizationCacheFix: z.boolean(), build: z.string().min(1).optional() }),
  workload: z
    // tenants: left out where the report does not say how many ran the workflow.
    .array(z.strictObject({ workflow: z.string().min(1), tenants: z.number().int().positive().optional() }))
    .min(1)
    .readonly(),
  observation: z.string().min(1),
  recorded: recordedSchema,
});

/** The pair's two clusters: the primary (every module's home) and the offload cluster that phases route modules to. */
export type ClusterRole = 'primary' | 'offload';

/** The offload cluster in a few words: "Serverless v2 0.5-32 ACU" or "provisioned db.r8g.2xlarge + 1 reader". */
export function describeOffload(offload: FolioPhase['offload']): string {
  if (offload.serverless)
    return `Serverless v2 ${offload.serverless.min}-${offload.serverless.max} ACU${offload.serverless.autoPause ? `, pauses after ${offload.serverless.autoPause}` : ''}`;
  const { instanceClass, readers } = offload.provisioned!;
  return `provisioned ${instanceClass}${readers ? ` + ${readers} reader${readers > 1 ? 's' : ''}` : ''}`;
}

/** An instance class as titles write it: db.r7g.2xlarge as "r7g.2xl". */
const shortClass = (instanceClass: string) => instanceClass.replace(/^db\./, '').replace(/xlarge$/, 'xl');

/** "a", "a and b", "a, b and c". */
const listed = (xs: readonly string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/**
 * A phase's title, from what it deploys and runs: writer, routed modules (by short name, or a
 * count past five), offload cluster, Data Import ramp-up, sidecar, tenants and load; then the
 * phase's own note. Never written by hand, so it cannot disagree with the fields.
 */
export function phaseTitle(phase: Omit<FolioPhaseInput, 'title' | 'crossSchemaAcks'>, shortName: (module: string) => string, note?: string): string {
  const { serverless, provisioned } = phase.offload;
  const routed = phase.routedToOffload;
  const offload = serverless ? `${serverless.min}-${serverless.max} ACU` : `provisioned ${shortClass(provisioned!.instanceClass)} offload`;
  const parts = [
    routed.length
      ? `${shortClass(phase.primaryInstanceClass)}, ${routed.length > 5 ? `${routed.length} modules` : listed(routed.map(shortName))} -> ${offload}`
      : `${shortClass(phase.primaryInstanceClass)} provisioned only`,
    ...(phase.dataImportRampUpSeconds ? [`Data Import ramp-up ${phase.dataImportRampUpSeconds} s`] : []),
    ...(phase.sidecar.authorizationCacheFix ? ['sidecar CICO fix'] : phase.sidecar.build ? [`sidecar ${phase.sidecar.build}`] : []),
    `${phase.tenants} tenants${phase.loadFactor === 1 ? '' : `, ${phase.loadFactor}x load`}`,
  ];
  return `${parts.join(', ')}${note ? ` (${note})` : ''}`;
}

/** The acknowledgements of exactly the reads a routing splits, for the modules that accept them (others stay refused). */
export function splitReadAcks(
  modules: readonly FolioModuleInput[],
  routed: readonly string[],
  reasonOf: (module: string) => string | undefined,
): CrossSchemaAckInput[] {
  const offload = new Set(routed);
  return modules.flatMap((m) => {
    const reason = reasonOf(m.name);
    const readsFrom = (m.readsSchemasOf ?? []).filter((r) => offload.has(r) !== offload.has(m.name));
    return reason && readsFrom.length ? [{ module: m.name, readsFrom, reason }] : [];
  });
}

type FolioSection = { environment: { region: string; database: { engineVersion: string } }; modules: readonly FolioModule[]; phases: readonly FolioPhase[] };
type Issue = (path: PropertyKey[], message: string, input?: unknown) => void;
const dupes = (xs: readonly string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);

/** Cross-table rules: names unique and known, routing possible, cross-schema reads satisfied. */
export function checkFolio(folio: FolioSection, ctx: z.core.$RefinementCtx): void {
  const issue: Issue = (path, message, input) => ctx.addIssue({ code: 'custom', path: ['folio', ...path], message, input });
  const modules = new Map(folio.modules.map((m) => [m.name, m]));
  const known = [...modules.keys()];

  for (const d of dupes(folio.modules.map((m) => m.name))) issue(['modules'], `module "${d}" is listed twice`, d);
  for (const d of dupes(folio.modules.map((m) => m.short))) issue(['modules'], `module short name "${d}" is used twice`, d);
  folio.modules.forEach((m, i) =>
    m.readsSchemasOf.forEach((r, j) => {
      if (!modules.has(r)) issue(['modules', i, 'readsSchemasOf', j], unknownModule(r, known), r);
    }),
  );
  for (const d of dupes(folio.phases.map((p) => p.name))) issue(['phases'], `scenario "${d}" is defined twice (valid: each name once)`, d);

  // What the region offers of the engine version: the version itself, then each phase's use of it.
  const { engineVersion } = folio.environment.database;
  const versions = loadEngineVersions(folio.environment.region);
  const unknown = engineVersionProblem(versions, engineVersion, { where: 'environment.database.engineVersion' });
  if (unknown) issue(['environment', 'database', 'engineVersion'], unknown.message, engineVersion);

  folio.phases.forEach((phase, pi) => {
    const at = (...rest: PropertyKey[]) => ['phases', pi, ...rest];
    if (!unknown) phaseEngineProblems(phase, versions, engineVersion, at, issue);
    phaseRoutingProblems(folio.modules, phase, at, issue);
  });
}

/** A phase's clusters on the engine version: the offload cluster's kind and class, the primary's class. */
function phaseEngineProblems(
  phase: FolioPhase,
  versions: ReturnType<typeof loadEngineVersions>,
  engineVersion: string,
  at: (...rest: PropertyKey[]) => PropertyKey[],
  issue: Issue,
): void {
  const acu = phase.offload.serverless;
  const offload = engineVersionProblem(versions, engineVersion, {
    where: acu ? `${phase.name}'s Serverless v2 cluster` : `${phase.name}'s offload cluster`,
    serverless: acu,
    instanceClasses: phase.offload.provisioned && [phase.offload.provisioned.instanceClass],
  });
  if (offload)
    issue(
      at(
        'offload',
        ...(offload.at === 'instanceClass' ? ['provisioned', 'instanceClass'] : offload.at === 'serverless' ? ['serverless'] : ['serverless', offload.at]),
      ),
      offload.message,
    );
  const primary = engineVersionProblem(versions, engineVersion, {
    where: `${phase.name}'s primary cluster`,
    instanceClasses: [phase.primaryInstanceClass],
  });
  if (primary) issue(at('primaryInstanceClass'), primary.message, phase.primaryInstanceClass);
}

/** A phase's routing: each module routed once, known and routable; every schema a module reads on its cluster, unless acknowledged. */
function phaseRoutingProblems(all: readonly FolioModule[], phase: FolioPhase, at: (...rest: PropertyKey[]) => PropertyKey[], issue: Issue): void {
  const modules = new Map(all.map((m) => [m.name, m]));
  const known = [...modules.keys()];
  const routable = all.filter((m) => m.routable).map((m) => m.name);
  for (const d of dupes(phase.routedToOffload)) issue(at('routedToOffload'), `module "${d}" is routed twice (valid: each module once)`, d);
  const routed = new Set<string>();
  phase.routedToOffload.forEach((name, i) => {
    if (!modules.has(name)) issue(at('routedToOffload', i), unknownModule(name, known), name);
    else if (!modules.get(name)!.routable)
      issue(
        at('routedToOffload', i),
        `"${name}" is not routable (routable: false in config/folio-modules.ts) (valid: a routable module: ${routable.join(', ')}; ` +
          `or make ${name} routable there, with readsSchemasOf naming every module whose schema it reads)`,
        name,
      );
    else routed.add(name);
  });
  // Split reads are judged on the routing meant: one with a module that cannot move is not it.
  const unroutable = phase.routedToOffload.some((name) => modules.has(name) && !modules.get(name)!.routable);
  const clusterOf = (m: string): ClusterRole => (routed.has(m) ? 'offload' : 'primary');

  const acks = new Map<string, Set<string>>();
  phase.crossSchemaAcks.forEach((a, ai) => {
    if (!modules.has(a.module)) return issue(at('crossSchemaAcks', ai, 'module'), unknownModule(a.module, known), a.module);
    const split = modules.get(a.module)!.readsSchemasOf.filter((r) => clusterOf(r) !== clusterOf(a.module));
    a.readsFrom.forEach((r, ri) => {
      if (!modules.has(r)) issue(at('crossSchemaAcks', ai, 'readsFrom', ri), unknownModule(r, known), r);
      else if (!unroutable && !split.includes(r))
        issue(
          at('crossSchemaAcks', ai, 'readsFrom', ri),
          `acknowledges that ${a.module} reads ${r} across clusters, but it does not in this routing; ` +
            `remove it (split reads here: ${split.length ? split.join(', ') : 'none'})`,
          r,
        );
    });
    acks.set(a.module, new Set([...(acks.get(a.module) ?? []), ...a.readsFrom]));
  });
  if (!unroutable) for (const split of splitReads(all, clusterOf, acks)) issue(at('routedToOffload'), split.message, split.module);
}

/**
 * Modules that would read schemas on the other cluster without an acknowledgement, each with
 * the message synth and `npm run move` both give.
 */
export function splitReads(
  modules: readonly FolioModule[],
  clusterOf: (module: string) => ClusterRole,
  acks: ReadonlyMap<string, ReadonlySet<string>>,
): { module: string; message: string }[] {
  return modules.flatMap((m) => {
    const missing = m.readsSchemasOf.filter((r) => clusterOf(r) !== clusterOf(m.name) && !acks.get(m.name)?.has(r));
    if (!missing.length) return [];
    return [
      {
        module: m.name,
        message:
          `${m.name} (on ${clusterOf(m.name)}) reads schemas that are on the other cluster: ${missing.join(', ')}; ` +
          `route them together or add {module: '${m.name}', readsFrom: [...], reason} to crossSchemaAcks`,
      },
    ];
  });
}

function unknownModule(name: string, known: readonly string[]): string {
  return `unknown module "${name}"${didYouMean(name, known)}; valid: ${[...known].sort().join(', ')}`;
}

export type FolioModuleInput = z.input<typeof folioModuleSchema>;
export type FolioModule = z.output<typeof folioModuleSchema>;
export type FolioEnvironmentInput = z.input<typeof folioEnvironmentSchema>;
export type FolioEnvironment = z.output<typeof folioEnvironmentSchema>;
export type CrossSchemaAckInput = z.input<typeof crossSchemaAckSchema>;
export type FolioPhaseInput = z.input<typeof folioPhaseSchema>;
export type FolioPhase = z.output<typeof folioPhaseSchema>;
