import {
  paginateDescribeDBEngineVersions,
  paginateDescribeOrderableDBInstanceOptions,
  type RDSClient,
  type ServerlessV2FeaturesSupport,
} from '@aws-sdk/client-rds';
import { ConfigError } from '../../../config';
import {
  ENGINE,
  type EngineVersion,
  type EngineVersionFile,
  engineVersionRegions,
  loadEngineVersions,
  saveEngineVersions,
} from '../../../config/engine-versions';
import { region as regionName } from '../../../config/fields';
import { loadAwsClients } from '../aws/load-clients';
import { type CommandOutput, today, type CommandDeps } from '../shared/cli';
import { markdownTable } from '../shared/markdown-table';

/*
 * The engine-versions command: what config/engine-versions/<region>.json offers, and its
 * refresh from RDS. DescribeDBEngineVersions lists the versions and their Serverless v2
 * capacity limits; DescribeOrderableDBInstanceOptions lists, per version, the instance
 * classes (db.serverless among them where Serverless v2 runs).
 */

/**
 * Serverless v2's range on a version RDS gives no ServerlessV2FeaturesSupport for: the limits
 * every version had before the field existed (Aurora User Guide, "Aurora Serverless v2 capacity").
 */
const SERVERLESS_V2_BEFORE_FEATURES = { minCapacity: 0.5, maxCapacity: 128 } as const;

/** A region's versions as RDS answers them, in the file's shape. */
export async function readEngineVersions(client: RDSClient, region: string, today: string): Promise<EngineVersionFile> {
  const limits = new Map<string, ServerlessV2FeaturesSupport | undefined>();
  for await (const page of paginateDescribeDBEngineVersions({ client }, { Engine: ENGINE }))
    for (const v of page.DBEngineVersions ?? []) if (v.EngineVersion) limits.set(v.EngineVersion, v.ServerlessV2FeaturesSupport);
  const classes = new Map<string, Set<string>>();
  for await (const page of paginateDescribeOrderableDBInstanceOptions({ client }, { Engine: ENGINE, MaxRecords: 1000 }))
    for (const o of page.OrderableDBInstanceOptions ?? [])
      if (o.EngineVersion && o.DBInstanceClass && limits.has(o.EngineVersion))
        classes.set(o.EngineVersion, (classes.get(o.EngineVersion) ?? new Set()).add(o.DBInstanceClass));
  if (!limits.size) throw new ConfigError(`RDS lists no ${ENGINE} versions in ${region}; the file is left as it was`);
  const versions: Record<string, EngineVersion> = {};
  for (const [version, features] of [...limits].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    const instanceClasses = [...(classes.get(version) ?? [])].sort();
    const serverless = instanceClasses.includes('db.serverless');
    versions[version] = {
      ...(serverless
        ? {
            serverlessV2: {
              minCapacity: features?.MinCapacity ?? SERVERLESS_V2_BEFORE_FEATURES.minCapacity,
              maxCapacity: features?.MaxCapacity ?? SERVERLESS_V2_BEFORE_FEATURES.maxCapacity,
            },
          }
        : {}),
      instanceClasses,
    };
  }
  return {
    region,
    engine: ENGINE,
    asOf: today,
    source: `DescribeDBEngineVersions and DescribeOrderableDBInstanceOptions (Engine ${ENGINE}) in ${region}, read by npm run engine-versions -- --refresh`,
    versions,
  };
}

export interface EngineVersionsOptions {
  /** Read the regions' versions from RDS and rewrite their files. */
  readonly refresh?: boolean;
  /** One region; every region with a file when absent. */
  readonly region?: string;
  readonly endpointUrl?: string;
  readonly json?: boolean;
}

export interface EngineVersionsDeps extends Pick<CommandDeps, 'aws'> {
  /** The date a refreshed file records. */
  readonly today?: string;
}

/** The command's flow: each region's table, refreshed first when asked. */
export async function runEngineVersions(o: EngineVersionsOptions, deps: EngineVersionsDeps = {}): Promise<CommandOutput> {
  if (o.region !== undefined && !regionName.safeParse(o.region).success)
    throw new ConfigError(`--region "${o.region}" is not an AWS region (valid: a region name such as eu-west-1)`);
  if (o.endpointUrl !== undefined && !o.refresh) throw new ConfigError('--endpoint-url applies to --refresh only (valid: add --refresh, or leave it out)');
  const rdsFor = (region: string): RDSClient => (deps.aws ?? loadAwsClients)().rds({ region, endpoint: o.endpointUrl });
  const regions = o.region ? [o.region] : engineVersionRegions();
  const out: string[] = [];
  const files: EngineVersionFile[] = [];
  for (const region of regions) {
    // A refresh may start a region's file; anything else needs the file (its absence is refused by name).
    const before = o.refresh && !engineVersionRegions().includes(region) ? undefined : loadEngineVersions(region);
    const file = o.refresh ? await readEngineVersions(rdsFor(region), region, deps.today ?? today()) : before!;
    if (o.refresh) saveEngineVersions(file);
    files.push(file);
    const changed = o.refresh ? ` (${before ? describeChange(before, file) : 'a new file'})` : '';
    out.push(`## ${region}: Aurora PostgreSQL, as of ${file.asOf}${changed}\n\n${renderVersions(file)}\n`);
  }
  return { stdout: o.json ? `${JSON.stringify(files, null, 2)}\n` : out.join('\n') };
}

/** What a refresh changed: versions added and gone. */
function describeChange(before: EngineVersionFile, after: EngineVersionFile): string {
  const added = Object.keys(after.versions).filter((v) => !before.versions[v]);
  const gone = Object.keys(before.versions).filter((v) => !after.versions[v]);
  if (!added.length && !gone.length) return 'the same versions as before';
  return [added.length ? `new: ${added.join(', ')}` : '', gone.length ? `no longer offered: ${gone.join(', ')}` : ''].filter(Boolean).join('; ');
}

/** One row per version: its Serverless v2 range and its instance class families. */
function renderVersions(file: EngineVersionFile): string {
  const rows = Object.entries(file.versions).map(([version, v]) => [
    version,
    v.serverlessV2 ? `${v.serverlessV2.minCapacity}-${v.serverlessV2.maxCapacity} ACU${v.serverlessV2.minCapacity === 0 ? ' (pauses)' : ''}` : 'no',
    [...new Set(v.instanceClasses.filter((c) => c !== 'db.serverless').map((c) => c.split('.')[1]))].join(', '),
  ]);
  return markdownTable(['Version', 'Serverless v2', 'Instance families'], rows);
}
