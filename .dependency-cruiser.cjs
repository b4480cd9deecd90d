/*
 * The project's structure as rules (npm run lint:deps, and test/structure.test.ts):
 *   config/         what a scenario means: data, validation, the packing model; imports nothing of ours
 *   lib/contract/   what the stacks and the commands agree on: names, outputs, metrics, rendered config
 *   lib/constructs/ one construct per concern; read the contract, never a stack
 *   lib/*-stack.ts  stacks that wire constructs
 *   lib/assembly/   the app: which stacks a scenario gets; the only place that imports the stacks
 *   lib/commands/   the companion commands, one folder each (run-<command>.ts is its flow), with
 *                   shared/ (what two commands use) and aws/ (the SDK clients); they read the app,
 *                   never the reverse
 *   harness/        real servers and emulators on loopback, for the tests and the measurement scripts
 *   bin/            entry points only
 */
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
      name: 'the-app-never-imports-commands',
      severity: 'error',
      comment: 'A deploy must not depend on a companion command (or its SDK clients).',
      from: { path: '^lib/(contract/|constructs/|assembly/|[^/]+-stack\\.ts$)' },
      to: { path: '^lib/commands/' },
    },
    {
      name: 'helpers-never-import-stacks',
      severity: 'error',
      comment: 'The contract and the constructs are what stacks are built from; a stack is built on them, never under them.',
      from: { path: '^lib/(contract|constructs)/' },
      to: { path: '^lib/([^/]+-stack\\.ts$|assembly/)' },
    },
    {
      name: 'the-contract-holds-no-constructs',
      severity: 'error',
      comment: 'Names and rendered config are read by the commands too; they must not pull in CDK constructs.',
      from: { path: '^lib/contract/' },
      to: { path: '^lib/constructs/' },
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
      name: 'entry-points-only-declare',
      comment:
        "bin/<command>.ts declares the command's options and calls its run function (lib/commands/<command>/run-<command>.ts); the flow lives there, where a test calls it.",
      severity: 'error',
      from: { path: '^bin/(?!app\\.ts$|preload\\.ts$)' },
      to: { path: '^(lib|config)/', pathNot: ['^lib/commands/[^/]+/run-[^/]+\\.ts$', '^lib/commands/shared/cli\\.ts$'] },
    },
    {
      name: 'commands-share-through-shared',
      comment:
        "A command imports its own folder, shared/ and aws/. What two commands need (a scenario's cost, a move's plan, waiting, money, the run record) belongs in lib/commands/shared/.",
      severity: 'error',
      from: { path: '^lib/commands/(?!shared/|aws/)([^/]+)/' },
      to: { path: '^lib/commands/', pathNot: ['^lib/commands/($1|shared|aws)/'] },
    },
    {
      name: 'shared-runs-no-command',
      comment: "shared/ and aws/ are under every command: they may name a command's types (the report file's shape), never run its code.",
      severity: 'error',
      from: { path: '^lib/commands/(shared|aws)/' },
      to: { path: '^lib/commands/(?!shared/|aws/)', dependencyTypesNot: ['type-only'] },
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
