import { parseDocument } from 'yaml';
import { ConfigError } from './errors';
import { readRegularFile } from './json-file';
import { type Campaign, type CampaignInput, resolveCampaign } from './campaign-schema';
import { CATALOG } from './index';
import type { CatalogInput } from './catalog-schema';

/*
 * A campaign the user keeps as a file of their own (YAML, or JSON, which YAML reads too), given
 * by its path where config/campaigns.ts's campaigns are given by name: validated by the same
 * schema and rules, each error naming the file.
 */

/** A campaign's name has no dot or slash, so an argument with one is a file's path. */
export function isCampaignFile(argument: string): boolean {
  return /[./\\]/.test(argument);
}

/** The campaign a file defines, and its definition as written, validated against the catalog. */
export function readCampaignFile(path: string, catalog: CatalogInput = CATALOG): { campaign: Campaign; definition: CampaignInput } {
  const text = readRegularFile(path, `campaign file ${path}`);
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const valid = 'valid: one campaign as YAML or JSON, with name, title, steps, onEnd and estimates as in config/campaigns.ts';
  if (doc.errors.length) throw new ConfigError(`campaign file ${path}: not YAML or JSON (${doc.errors[0].message.split('\n')[0]}) (${valid})`);
  // An alias expanded past a hundred times (a billion laughs) is refused, not built.
  let definition: unknown;
  try {
    definition = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new ConfigError(`campaign file ${path}: not YAML or JSON (${(e as Error).message.split('\n')[0]}) (${valid})`);
  }
  if (definition === null || typeof definition !== 'object' || Array.isArray(definition))
    throw new ConfigError(
      `campaign file ${path}: holds ${Array.isArray(definition) ? 'a list' : definition === null ? 'nothing' : `a ${typeof definition}`}, not one campaign (${valid})`,
    );
  const name = (definition as { name?: unknown }).name;
  if (typeof name !== 'string') throw new ConfigError(`campaign file ${path}: has no name (${valid})`);
  try {
    return { campaign: { ...resolveCampaign(name, [definition as CampaignInput], catalog), file: path }, definition: definition as CampaignInput };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    throw new ConfigError(`campaign file ${path}: ${e.message.replace(/^config error in campaign [^:]+: /, '').replace(/^campaign [^,]+, /, '')}`);
  }
}
