/** Masks asset hashes (Lambda zips, asset parameters) so snapshots change only with the template. */
const HASH = /[a-f0-9]{64}/g;

export = {
  test: (val: unknown): boolean => typeof val === 'string' && /[a-f0-9]{64}/.test(val),
  serialize: (val: string): string => JSON.stringify(val.replace(HASH, '[ASSET-HASH]')),
};
