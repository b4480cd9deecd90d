import { existsSync, readdirSync } from 'node:fs';
import { readJsonFile, writeFileAtomically } from './json-file';
import { join } from 'node:path';
import { z } from './zod';
import { ConfigError, fileIssue } from './errors';
import { region } from './fields';

/*
 * The Aurora PostgreSQL versions a region offers, as data: one file per region under
 * config/engine-versions/, each version with what it gates here: Serverless v2 (and the
 * capacity range its platform allows: 0 ACU means it can pause) and the DB instance classes it
 * can be ordered in. `npm run engine-versions -- --refresh` rewrites a file from
 * DescribeDBEngineVersions and DescribeOrderableDBInstanceOptions
 * (lib/commands/engine-versions/run-engine-versions.ts); config refuses a version, a range or a class the file does
 * not offer, with the file's date, before anything is built.
 */

const DIR = join(__dirname, 'engine-versions');
export const ENGINE = 'aurora-postgresql';

const versionSchema = z.strictObject({
  /** Absent where the version cannot run Serverless v2 (no db.serverless to order). */
  serverlessV2: z.strictObject({ minCapacity: z.number().min(0), maxCapacity: z.number().positive() }).optional(),
  instanceClasses: z.array(z.string().regex(/^db\.[a-z0-9]+(\.[a-z0-9]+)?$/)),
});

export const engineVersionFileSchema = z.strictObject({
  region,
  engine: z.literal(ENGINE),
  asOf: z.iso.date({ error: 'asOf is a date, YYYY-MM-DD' }),
  source: z.string().min(1),
  versions: z.record(z.string().regex(/^\d+\.\d+$/, { error: 'a version is major.minor, e.g. 16.8' }), versionSchema),
});

export type EngineVersionFile = z.output<typeof engineVersionFileSchema>;
export type EngineVersion = z.output<typeof versionSchema>;

const pathOf = (regionName: string) => join(DIR, `${regionName}.json`);

/** The regions that have a file. */
export function engineVersionRegions(): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

/** Each region's file as last read or written: config checks it on every scenario it resolves. */
const loaded = new Map<string, EngineVersionFile>();

/** A region's versions, validated; a missing or malformed file is one ConfigError line. */
export function loadEngineVersions(regionName: string): EngineVersionFile {
  const known = loaded.get(regionName);
  if (known) return known;
  const file = pathOf(regionName);
  if (!existsSync(file))
    throw new ConfigError(
      `no Aurora PostgreSQL versions for region ${regionName}: config/engine-versions/${regionName}.json does not exist (valid regions: ${engineVersionRegions().join(', ')}; npm run engine-versions -- --refresh --region ${regionName} reads them from AWS)`,
    );
  const input = readJsonFile(
    file,
    `config/engine-versions/${regionName}.json`,
    'a version file as `npm run engine-versions -- --refresh` writes it; `git checkout config/engine-versions` restores the shipped one',
  );
  const parsed = engineVersionFileSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(fileIssue(`config/engine-versions/${regionName}.json`, parsed.error, input, engineVersionFileSchema));
  if (parsed.data.region !== regionName) throw new ConfigError(`config/engine-versions/${regionName}.json says region ${parsed.data.region}`);
  loaded.set(regionName, parsed.data);
  return parsed.data;
}

export function saveEngineVersions(file: EngineVersionFile): void {
  writeFileAtomically(pathOf(file.region), `${JSON.stringify(engineVersionFileSchema.parse(file), null, 2)}\n`);
  loaded.set(file.region, file);
}

const byVersion = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1];
};

/** What a use of an engine version needs of it: Serverless v2 with a range, and instance classes. */
export interface EngineUse {
  /** Where the version is used, as a message names it: "test5's offload cluster". */
  readonly where: string;
  readonly serverless?: { readonly min: number; readonly max: number };
  readonly instanceClasses?: readonly string[];
}

/** A problem with an engine version's use: what is wrong (`at`: the version, the range's min or max, Serverless v2 at all, an instance class) and the line that says so. */
export interface EngineProblem {
  readonly at: 'version' | 'serverless' | 'min' | 'max' | 'instanceClass';
  readonly message: string;
}

/**
 * Why `version` cannot serve `use` in the file's region, in one line naming what is valid; undefined
 * when it can. Every answer names the file and its date: the table is as old as its last refresh.
 */
export function engineVersionProblem(file: EngineVersionFile, version: string, use: EngineUse): EngineProblem | undefined {
  const problem = versionProblem(file, version, use);
  return problem && { at: problem[0], message: problem[1] };
}

function versionProblem(file: EngineVersionFile, version: string, use: EngineUse): [EngineProblem['at'], string] | undefined {
  const from = `config/engine-versions/${file.region}.json, as of ${file.asOf}`;
  const v = file.versions[version];
  if (!v) {
    const major = version.split('.')[0];
    const same = Object.keys(file.versions)
      .filter((k) => k.split('.')[0] === major)
      .sort(byVersion);
    const valid = same.length
      ? `${major}.x: ${same.join(', ')}`
      : `majors ${[...new Set(Object.keys(file.versions).map((k) => k.split('.')[0]))].sort((a, b) => Number(a) - Number(b)).join(', ')}`;
    return ['version', `Aurora PostgreSQL ${version} is not offered in ${file.region} (${use.where}; valid: ${valid}; ${from})`];
  }
  if (use.serverless) {
    const s = v.serverlessV2;
    const withIt = (ok: (x: NonNullable<EngineVersion['serverlessV2']>) => boolean) =>
      Object.entries(file.versions)
        .filter(([, x]) => x.serverlessV2 && ok(x.serverlessV2))
        .map(([k]) => k)
        .sort(byVersion);
    if (!s)
      return [
        'serverless',
        `Aurora PostgreSQL ${version} cannot run Serverless v2 in ${file.region} (${use.where}; valid: ${firstOfEachMajor(withIt(() => true)).join(', ')} or later in their major; ${from})`,
      ];
    if (use.serverless.min < s.minCapacity)
      return [
        'min',
        `${use.where} has min ${use.serverless.min} ACU, which Aurora PostgreSQL ${version} cannot pause to: its Serverless v2 starts at ${s.minCapacity} ACU (valid: min ${s.minCapacity} or more, or a version from ${firstOfEachMajor(withIt((x) => x.minCapacity <= use.serverless!.min)).join(', ')} on; ${from})`,
      ];
    if (use.serverless.max > s.maxCapacity)
      return [
        'max',
        `${use.where} has max ${use.serverless.max} ACU, above the ${s.maxCapacity} ACU Aurora PostgreSQL ${version} allows (valid: max ${s.maxCapacity} or less, or a version from ${firstOfEachMajor(withIt((x) => x.maxCapacity >= use.serverless!.max)).join(', ')} on; ${from})`,
      ];
  }
  for (const c of use.instanceClasses ?? [])
    if (!v.instanceClasses.includes(c)) {
      const family = c.split('.')[1];
      const offered = Object.entries(file.versions)
        .filter(([, x]) => x.instanceClasses.includes(c))
        .map(([k]) => k)
        .sort(byVersion);
      const sameFamily = v.instanceClasses.filter((x) => x.split('.')[1] === family);
      const valid = [
        sameFamily.length ? `${sameFamily.join(', ')} on ${version}` : undefined,
        offered.length ? `${c} from ${firstOfEachMajor(offered).join(', ')}` : undefined,
      ]
        .filter(Boolean)
        .join(', or ');
      return [
        'instanceClass',
        `${c} cannot be ordered with Aurora PostgreSQL ${version} in ${file.region} (${use.where}; valid: ${valid || `a class of ${[...new Set(v.instanceClasses.map((x) => x.split('.')[1]))].join(', ')}`}; ${from})`,
      ];
    }
  return undefined;
}

/** The lowest version of each major among `versions` (sorted). */
function firstOfEachMajor(versions: readonly string[]): string[] {
  const first = new Map<string, string>();
  for (const v of [...versions].sort(byVersion)) if (!first.has(v.split('.')[0])) first.set(v.split('.')[0], v);
  return [...first.values()];
}
