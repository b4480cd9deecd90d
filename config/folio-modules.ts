import type { FolioModuleInput } from './folio-schema';

/**
 * FOLIO modules with a database schema that this stack gives a connection secret.
 *
 * `routable` marks the modules the hybrid experiment may move to the Serverless cluster
 * (the seven heavy modules of PERF-1229/PERF-1334); the rest always stay on the provisioned one.
 * `readsSchemasOf` lists the modules whose schemas this module reads with SQL of its own
 * (views or joins), so both must live on the same cluster (folio-aurora.md §0.2).
 */
export const FOLIO_MODULES: readonly FolioModuleInput[] = [
  { name: 'mod-source-record-manager', short: 'srm', framework: 'rmb', routable: true, readsSchemasOf: [] },
  { name: 'mod-source-record-storage', short: 'srs', framework: 'rmb', routable: true, readsSchemasOf: [] },
  { name: 'mod-inventory-storage', short: 'inv-strg', framework: 'rmb', routable: true, readsSchemasOf: [] },
  { name: 'mod-orders-storage', short: 'ord-strg', framework: 'rmb', routable: true, readsSchemasOf: [] },
  {
    name: 'mod-data-export',
    short: 'data-export',
    framework: 'spring',
    routable: true,
    // Liquibase views over inventory, SRS and users (src/main/resources/db/changelog/changes/*.sql).
    readsSchemasOf: ['mod-inventory-storage', 'mod-source-record-storage', 'mod-users'],
  },
  // mod-lists queries through FQM's API, not through SQL of its own.
  { name: 'mod-lists', short: 'lists', framework: 'spring', routable: true, readsSchemasOf: [] },
  {
    name: 'mod-fqm-manager',
    short: 'fqm-manager',
    framework: 'spring',
    routable: true,
    // Bundled source views (src/main/resources/db/source-views/bundled/**).
    readsSchemasOf: [
      'mod-agreements',
      'mod-circulation-storage',
      'mod-finance-storage',
      'mod-inventory-storage',
      'mod-invoice-storage',
      'mod-linked-data',
      'mod-oa',
      'mod-orders-storage',
      'mod-organizations-storage',
      'mod-settings',
      'mod-source-record-storage',
      'mod-tags',
      'mod-users',
    ],
  },
  {
    name: 'mod-oai-pmh',
    short: 'oai-pmh',
    framework: 'rmb',
    routable: false,
    // Views get_instances_from_inventory / get_instances_from_srs.
    readsSchemasOf: ['mod-inventory-storage', 'mod-source-record-storage'],
  },
  { name: 'mod-agreements', short: 'agreements', framework: 'grails', routable: false, readsSchemasOf: [] },
  { name: 'mod-circulation-storage', short: 'circ-strg', framework: 'rmb', routable: false, readsSchemasOf: [] },
  { name: 'mod-data-import', short: 'data-import', framework: 'rmb', routable: false, readsSchemasOf: [] },
  { name: 'mod-di-converter-storage', short: 'di-conv', framework: 'rmb', routable: false, readsSchemasOf: [] },
  { name: 'mod-finance-storage', short: 'fin-strg', framework: 'rmb', routable: false, readsSchemasOf: [] },
  { name: 'mod-invoice-storage', short: 'invoice-strg', framework: 'rmb', routable: false, readsSchemasOf: [] },
  { name: 'mod-linked-data', short: 'linked-data', framework: 'spring', routable: false, readsSchemasOf: [] },
  { name: 'mod-oa', short: 'oa', framework: 'grails', routable: false, readsSchemasOf: [] },
  { name: 'mod-organizations-storage', short: 'org-strg', framework: 'rmb', routable: false, readsSchemasOf: [] },
  { name: 'mod-settings', short: 'settings', framework: 'rmb', routable: false, readsSchemasOf: [] },
  { name: 'mod-tags', short: 'tags', framework: 'rmb', routable: false, readsSchemasOf: [] },
  { name: 'mod-users', short: 'users', framework: 'rmb', routable: false, readsSchemasOf: [] },
];
