/*
 * The project's structure as rules (npm run lint:deps, and test/structure.test.ts):
 *   config/              what a scenario means: data, validation, the packing model; imports nothing of ours
 *   lib/platform/        what every family shares: constructs/, contract/, and family.ts (the Family interface)
 *   lib/<family>/        one family (folio/, temporal/): its constructs/, contract/, commands/ and <family>-family.ts,
 *                        the one object the registry holds; no family imports another
 *   lib/families.ts      the registry: the only module that imports a family's <family>-family.ts
 *   lib/*-stack.ts       stacks that wire: a data stack from its own family's folder, the observability stack from platform/
 *   lib/assembly/        the app: which stacks a scenario gets (through the registry)
 *   lib/commands/        what every family's commands share, one folder per command (run-<command>.ts is its flow),
 *                        with shared/ (what two commands use) and aws/ (the SDK clients); they reach a family
 *                        only through the registry
 *   lib/<family>/commands/  the commands only that family has, and its part of the shared ones
 *   lib/campaign/        campaigns: the commands run in sequence, unattended, through their run functions
 *                        as bin/ runs them; a family otherwise only through the registry
 *   harness/             real servers and emulators on loopback, for the tests and the measurement scripts
 *   bin/                 entry points only
 * In every folder, contract/ holds no constructs and neither imports a command or a stack.
 */
/** A family's folder: any folder of lib/ but the shared ones. */
const FAMILY = '(?!platform/|commands/|assembly/|campaign/)[^/]+';
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: split the shared part into a module both can import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'config-is-the-base',
      severity: 'error',
      comment: 'config/ is read by everything; it must not import the app, the commands or the tests.',
      from: { path: '^config/' },
      to: { path: '^(lib|bin|test|scripts)/' },
    },
    {
      name: 'families-stay-apart',
      severity: 'error',
      comment: 'One family never reads another: what both need belongs in lib/platform/ (or lib/commands/ for a command).',
      from: { path: `^lib/(${FAMILY})/` },
      to: { path: `^lib/${FAMILY}/`, pathNot: ['^lib/$1/'] },
    },
    {
      name: 'the-platform-knows-no-family',
      severity: 'error',
      comment: "lib/platform/ is under every family; a family, the registry or a stack above it would make it one family's.",
      from: { path: '^lib/platform/' },
      to: { path: [`^lib/${FAMILY}/`, '^lib/families\\.ts$', '^lib/[^/]+-stack\\.ts$', '^lib/assembly/'] },
    },
    {
      name: 'shared-code-reaches-a-family-through-the-registry',
      severity: 'error',
      comment: 'The app, the observability stack and the shared commands ask lib/families.ts for a family; importing one would branch on it again.',
      from: { path: ['^lib/(commands|assembly)/', '^lib/observability-stack\\.ts$'] },
      to: { path: `^lib/${FAMILY}/` },
    },
    {
      name: 'only-the-registry-imports-a-family',
      severity: 'error',
      comment: "A family's <family>-family.ts is the registry's entry; everything else reads the family through lib/families.ts.",
      from: { pathNot: ['^lib/families\\.ts$', '^test/'] },
      to: { path: `^lib/${FAMILY}/[^/]+-family\\.ts$` },
    },
    {
      name: 'a-family-loads-its-own-parts',
      severity: 'error',
      comment:
        "A family's stacks (<family>-stacks.ts) and its commands' parts (<family>-commands.ts) are loaded by its family file alone, each when what uses it asks.",
      from: { pathNot: ['^lib/[^/]+/[^/]+-family\\.ts$', '^test/'] },
      to: { path: `^lib/${FAMILY}/[^/]+-(stacks|commands)\\.ts$` },
    },
    {
      name: 'a-data-stack-wires-its-own-family',
      severity: 'error',
      comment: "Each data stack wires one family: FOLIO's hybrid Aurora stack, or Temporal's.",
      from: { path: '^lib/hybrid-aurora-stack\\.ts$' },
      to: { path: `^lib/${FAMILY}/`, pathNot: ['^lib/folio/'] },
    },
    {
      name: 'the-temporal-stack-wires-temporal',
      severity: 'error',
      comment: "Each data stack wires one family: FOLIO's hybrid Aurora stack, or Temporal's.",
      from: { path: '^lib/temporal-dsql-stack\\.ts$' },
      to: { path: `^lib/${FAMILY}/`, pathNot: ['^lib/temporal/'] },
    },
    {
      name: 'the-app-never-imports-commands',
      severity: 'error',
      comment: 'Constructs, contracts and stacks are what a deploy runs; a companion command (or its SDK clients) must not be part of it.',
      from: { path: ['^lib/(contract|constructs|[^/]+/contract|[^/]+/constructs)/', '^lib/[^/]+-stack\\.ts$'] },
      to: { path: ['^lib/(commands|[^/]+/commands)/', '^lib/families\\.ts$', `^lib/${FAMILY}/[^/]+-(family|commands)\\.ts$`] },
    },
    {
      name: 'helpers-never-import-stacks',
      severity: 'error',
      comment: 'The contract and the constructs are what stacks are built from; a stack is built on them, never under them.',
      from: { path: '^lib/(contract|constructs|[^/]+/contract|[^/]+/constructs)/' },
      to: { path: '^lib/([^/]+-stack\\.ts$|assembly/)' },
    },
    {
      name: 'the-contract-holds-no-constructs',
      severity: 'error',
      comment: 'Names and rendered config are read by the commands too; they must not pull in CDK constructs.',
      from: { path: '^lib/(contract|[^/]+/contract)/' },
      to: { path: '^lib/(constructs|[^/]+/constructs)/' },
    },
    {
      name: 'stacks-never-import-the-assembly',
      severity: 'error',
      comment: 'The assembly picks the stacks; a stack that reads it runs the layers backwards.',
      from: { path: '^lib/[^/]+-stack\\.ts$' },
      to: { path: '^lib/assembly/' },
    },
    {
      name: 'the-product-never-imports-tests',
      severity: 'error',
      comment: 'The harness serves the tests and the measurement scripts, never the app or the commands.',
      from: { path: '^(bin|lib|config)/' },
      to: { path: '^(test|harness)/' },
    },
    {
      name: 'only-tests-import-tests',
      severity: 'error',
      comment: 'What a script or the harness needs from test/ belongs in harness/.',
      from: { path: '^(scripts|harness)/' },
      to: { path: '^test/' },
    },
    {
      name: 'nothing-imports-entry-points',
      severity: 'error',
      comment: 'bin/ and scripts/ run; shared code belongs in lib/ or config/.',
      from: {},
      to: { path: '^(bin|scripts)/' },
    },
    {
      name: 'no-dev-dependencies-at-run-time',
      severity: 'error',
      comment: 'The app and the commands must run after `npm ci --omit=dev`.',
      from: { path: '^(bin|lib|config)/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'a-campaign-runs-commands-as-a-user-does',
      comment:
        "lib/campaign runs a family's commands through their run functions (lib/<family>/commands/<command>/run-<command>.ts), as bin/ does; anything else of a family, through the registry.",
      severity: 'error',
      from: { path: '^lib/campaign/' },
      to: { path: `^lib/${FAMILY}/`, pathNot: [`^lib/${FAMILY}/commands/[^/]+/run-[^/]+\\.ts$`] },
    },
    {
      name: 'only-its-entry-point-runs-a-campaign',
      comment: "Campaigns sit above the commands: no command, family or stack imports them (the campaign's part of the family contract, a type, aside).",
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/campaign/' },
      to: { path: '^lib/campaign/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'the-platform-is-under-the-commands',
      comment:
        "lib/platform/ is what every family and command builds on; a command's types belong to the command (its part of the family contract beside it, lib/family-contract.ts above both).",
      severity: 'error',
      from: { path: '^lib/platform/' },
      to: { path: ['^lib/(commands|campaign)/', '^lib/[^/]+/commands/', '^lib/family-contract\\.ts$'] },
    },
    {
      name: 'entry-points-only-declare',
      comment:
        "bin/<command>.ts declares the command's options and calls its run function (lib/commands/<command>/run-<command>.ts, or lib/<family>/commands/<command>/ for a family's own); the flow lives there, where a test calls it.",
      severity: 'error',
      from: { path: '^bin/(?!app\\.ts$|preload\\.ts$)' },
      to: {
        path: '^(lib|config)/',
        pathNot: ['^lib/(commands|[^/]+/commands)/[^/]+/run-[^/]+\\.ts$', '^lib/campaign/run-campaign\\.ts$', '^lib/commands/shared/cli\\.ts$'],
      },
    },
    {
      name: 'commands-share-through-shared',
      comment:
        "A command imports its own folder, shared/ and aws/. What two commands need (a scenario's cost, waiting, money, the run record) belongs in lib/commands/shared/.",
      severity: 'error',
      from: { path: '^lib/commands/(?!shared/|aws/)([^/]+)/' },
      to: { path: '^lib/commands/', pathNot: ['^lib/commands/($1|shared|aws)/'] },
    },
    {
      name: 'a-family-command-shares-through-shared',
      comment:
        "A family's part of a command imports its own folder, that command's shared modules, its family's commands/shared/, shared/ and aws/; another command's parts are reached through a shared/ (a type aside: cost reads a report's shape).",
      severity: 'error',
      from: { path: `^lib/(${FAMILY})/commands/([^/]+)/` },
      to: {
        path: ['^lib/commands/', `^lib/$1/commands/`],
        pathNot: ['^lib/commands/($2|shared|aws)/', '^lib/$1/commands/($2|shared)/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'shared-runs-no-command',
      comment: "shared/ and aws/ are under every command: they may name a command's types (the report file's shape), never run its code.",
      severity: 'error',
      from: { path: '^lib/commands/(shared|aws)/' },
      to: { path: '^lib/commands/(?!shared/|aws/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'cdk-by-module',
      severity: 'error',
      comment:
        "aws-cdk-lib's barrel declares every service's module, about 670,000 lines tsc parses on every run: import aws-cdk-lib/core and aws-cdk-lib/aws-<service>.",
      from: {},
      to: { path: '^(node_modules/)?aws-cdk-lib(/index\\.js)?$' },
    },
    {
      name: 'zod-through-config',
      severity: 'error',
      comment: 'config/zod.ts sets zod up before any schema is parsed (no compiled schemas: a process parses each a few times).',
      from: { pathNot: '^config/zod\\.ts$' },
      to: { path: '^(node_modules/)?zod(/|$)' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nobody imports is dead code (entry points, tests and type declarations aside).',
      from: { orphan: true, pathNot: ['^(bin|scripts)/', '^test/', '\\.d\\.ts$', '^\\.dependency-cruiser\\.cjs$', '^jest[^/]*\\.js$'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(cdk\\.out|benchmark|docs)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a circle of types is still a circle for a reader.
    tsPreCompilationDeps: true,
  },
};
