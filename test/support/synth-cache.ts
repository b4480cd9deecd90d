import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/*
 * Every standard scenario synthesized once per source state, into a directory every Jest worker
 * reads (the same cloud assemblies `cdk synth` writes, with cdk-nag and CDK's CloudFormation
 * validation reports beside them). The directory is named by a hash of everything synth reads,
 * so a stale cache cannot be found: a changed source is a new name. Jest's globalSetup fills it
 * (one process); test/support/synth.ts and test/support/lint.ts read it.
 *
 * The synthesis itself runs in synth-worker.ts.
 */

const ROOT = join(__dirname, '../..');
const CACHE_ROOT = join(ROOT, 'node_modules/.cache/db-bench-infra/synth');

/**
 * What synth reads: the app (all of lib/ but the commands, lib/commands/ and lib/<family>/commands/,
 * which synth never loads: test/structure.test.ts), config, the images' build contexts, the CLI context, the lock
 * file, and the cache's own code. A source that does not exist is an error, not an empty part
 * of the key: a moved folder must not leave the cache keyed on nothing.
 */
const NOT_READ_BY_SYNTH = /^lib\/([^/]+\/)?commands\//;
const SOURCES = [
  'bin/app.ts',
  'bin/preload.ts',
  'lib',
  'config',
  'docker',
  'benchmark',
  'cdk.json',
  'package-lock.json',
  'tsconfig.json',
  'checkov-skips.yaml',
  'test/support/synth-cache.ts',
  'test/support/synth-worker.ts',
  'test/support/kept-validation.ts',
];

function* filesUnder(path: string): Generator<string> {
  if (!existsSync(path)) throw new Error(`the synth cache's source ${relative(ROOT, path)} does not exist: update SOURCES in test/support/synth-cache.ts`);
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) yield* filesUnder(join(path, name));
}

/** Every file the cache's key covers, relative to the repository. */
export function synthSources(): string[] {
  return SOURCES.flatMap((top) => [...filesUnder(join(ROOT, top))].map((f) => relative(ROOT, f)).filter((f) => !NOT_READ_BY_SYNTH.test(f)));
}

/** A hash of every file synth reads (paths and contents), and the Node.js that runs it (each supported version synthesizes for itself). */
function sourceKey(): string {
  const hash = createHash('sha256').update(process.version).update('\0');
  for (const file of synthSources())
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** A context as a directory name: `scenario=test12,envName=perf2`. */
const variantId = (context: Readonly<Record<string, string>>): string =>
  Object.entries(context)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

export const parseVariant = (id: string): Record<string, string> => Object.fromEntries(id.split(',').map((kv) => kv.split('=') as [string, string]));

export interface CachedStack {
  /** The stack's construct path (its artifact's display name). */
  readonly path: string;
  readonly stackName: string;
  readonly terminationProtection: boolean;
  /** Stack names this stack deploys after. */
  readonly dependencies: readonly string[];
  readonly templateFile: string;
}

/** The data and observability stacks of one cached assembly, from its manifest. */
export function cachedStacks(outdir: string): { data: CachedStack; observability: CachedStack } {
  const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8'));
  const artifacts = Object.entries(manifest.artifacts as Record<string, any>).filter(([, a]) => a.type === 'aws:cloudformation:stack');
  const nameOf = new Map(artifacts.map(([id, a]) => [id, a.properties.stackName ?? id]));
  const stacks = artifacts.map(([id, a]) => ({
    path: a.displayName ?? id,
    stackName: nameOf.get(id)!,
    terminationProtection: a.properties.terminationProtection === true,
    dependencies: ((a.dependencies ?? []) as string[]).filter((d) => nameOf.has(d)).map((d) => nameOf.get(d)!),
    templateFile: join(outdir, a.properties.templateFile),
  }));
  const observability = stacks.find((s) => s.dependencies.length > 0)!;
  const data = stacks.find((s) => s !== observability)!;
  return { data, observability };
}

/** Where the cached assembly of `context` is, if the cache for today's sources has it. */
export function cachedAssembly(context: Readonly<Record<string, string>>): string | undefined {
  const dir = process.env.SYNTH_CACHE_DIR;
  if (!dir) return undefined;
  const outdir = join(dir, variantId(context));
  return existsSync(join(outdir, 'manifest.json')) ? outdir : undefined;
}

/**
 * Every module of the project the cache's worker loaded (relative paths): what synth reads
 * of the code, which the cache's key must cover. Undefined outside a Jest run.
 */
export function loadedModules(): string[] | undefined {
  const dir = process.env.SYNTH_CACHE_DIR;
  if (!dir) return undefined;
  const files = readdirSync(dir).filter((f) => /^loaded-modules\.\d+\.json$/.test(f));
  const loaded = files.flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as string[]);
  return [...new Set(loaded)];
}

/**
 * What a test synthesized beyond the stock variants (an edited catalog, another context), kept
 * under the run's synth cache by a hash of `what` decides it: a later run on the same sources
 * reads it instead of synthesizing again, and a changed source starts a new cache without it.
 * `synth` writes into the path it is given (a cloud assembly, or a file); concurrent workers each
 * write their own and the first rename wins. Undefined outside a Jest run.
 */
export function kept(what: unknown, synth: (path: string) => void): string | undefined {
  const dir = process.env.SYNTH_CACHE_DIR;
  if (!dir) return undefined;
  const path = join(dir, 'kept', createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 16));
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const writing = `${path}.${process.pid}.tmp`;
  rmSync(writing, { recursive: true, force: true });
  try {
    synth(writing);
    if (!existsSync(path)) renameSync(writing, path);
  } finally {
    rmSync(writing, { recursive: true, force: true });
  }
  return path;
}

/** The CloudFormation service specification cloudformation-diff loads: its own dependency, resolved as it resolves it. */
export const SERVICE_SPEC = require.resolve('@aws-cdk/aws-service-spec', { paths: [dirname(require.resolve('@aws-cdk/cloudformation-diff'))] });

/** The resource models written beside the cached assemblies (resourceModels). */
const RESOURCE_MODELS = 'resource-models.json';

/**
 * Writes into `dir` the specification's model of each resource type the cached templates hold:
 * what plan's diff reads of it (a property's replacement rule), for test/support/cached-service-spec.ts.
 */
function writeResourceModels(dir: string, ids: readonly string[]): void {
  const types = new Set<string>();
  for (const id of ids)
    for (const stack of Object.values(cachedStacks(join(dir, id))))
      for (const r of Object.values((JSON.parse(readFileSync(stack.templateFile, 'utf8')).Resources ?? {}) as Record<string, { Type: string }>))
        types.add(r.Type);
  const spec = require(SERVICE_SPEC).loadAwsServiceSpecSync();
  // A type the specification has no model of (a custom resource) is kept as null: its answer is none.
  const models = [...types].sort().map((type) => [type, spec.lookup('resource', 'cloudFormationType', 'equals', type)[0] ?? null]);
  writeFileSync(join(dir, RESOURCE_MODELS), JSON.stringify(Object.fromEntries(models)));
}

/** The resource models of the run's synth cache, by type (null: the specification has none); undefined outside a Jest run. */
export function resourceModels(): Record<string, unknown> | undefined {
  const dir = process.env.SYNTH_CACHE_DIR;
  return dir && existsSync(join(dir, RESOURCE_MODELS)) ? JSON.parse(readFileSync(join(dir, RESOURCE_MODELS), 'utf8')) : undefined;
}

function runWorker(dir: string, ids: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // CDK_VALIDATION=false (the unit tests' setting) would turn off the validation test/lint reads.
    const { CDK_VALIDATION: _, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'synth-worker.ts'), dir, ...ids], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`synthesizing ${ids.join(' ')} failed (exit ${code}):\n${stderr}`))));
  });
}

/**
 * Removes from `root` every cache but `key`'s, and every build (`<key>.<pid>.tmp`) whose process
 * no longer runs: a run killed while it built leaves its directory behind. A build in progress
 * stays.
 */
export function removeOldCaches(root: string, key: string): void {
  const running = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code !== 'ESRCH';
    }
  };
  for (const name of readdirSync(root)) {
    const building = /\.(\d+)\.tmp$/.exec(name);
    if (name !== key && !(building && running(Number(building[1])))) rmSync(join(root, name), { recursive: true, force: true });
  }
}

/**
 * The cache directory for today's sources, filled if it is not there yet, by one process: a
 * second would pay again what one pays once (loading the app and aws-cdk-lib, starting CDK's
 * validation engine), more than half of a warm synthesis, while the other core runs tsc and
 * prettier beside it. Concurrent runs each build into a temporary directory and the first
 * rename wins; older caches are removed.
 */
export async function buildSynthCache(variants: ReadonlyArray<Readonly<Record<string, string>>>): Promise<string> {
  const key = sourceKey();
  const dir = join(CACHE_ROOT, key);
  if (existsSync(join(dir, 'complete'))) return dir;
  mkdirSync(CACHE_ROOT, { recursive: true });
  const building = join(CACHE_ROOT, `${key}.${process.pid}.tmp`);
  rmSync(building, { recursive: true, force: true });
  const ids = variants.map(variantId);
  try {
    await runWorker(building, ids);
    writeResourceModels(building, ids);
    writeFileSync(join(building, 'complete'), `${ids.length} variants\n`);
    removeOldCaches(CACHE_ROOT, key);
    if (!existsSync(dir)) renameSync(building, dir);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}
