import { existsSync, readdirSync } from 'node:fs';
import { readJsonFile, writeFileAtomically } from './json-file';
import { join } from 'node:path';
import { z } from './zod';
import { ConfigError, didYouMean, fileIssue } from './errors';
import { region } from './fields';

/*
 * On-demand prices, as data: one file per region under config/prices/, each price with its
 * unit, the date it was read and where from. `npm run cost -- --refresh-prices` rewrites the
 * ones the AWS Price List API can answer (lib/commands/cost/price-list.ts); the rest keep their source.
 */

const PRICES_DIR = join(__dirname, 'prices');

const priceSchema = z.strictObject({
  usd: z.number().nonnegative(),
  per: z.string().min(1),
  asOf: z.iso.date({ error: 'asOf is a date, YYYY-MM-DD' }),
  source: z.string().min(1),
});

export const priceFileSchema = z.strictObject({
  region,
  currency: z.literal('USD'),
  prices: z.record(z.string().regex(/^[a-z0-9]+:[A-Za-z0-9.-]+$/, { error: 'a price key is <service>:<item>, e.g. ec2:m7g.2xlarge' }), priceSchema),
});

export type Price = z.output<typeof priceSchema>;
export type PriceFile = z.output<typeof priceFileSchema>;

/** The regions that have a price file. */
export function pricedRegions(): string[] {
  return readdirSync(PRICES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

const priceFilePath = (regionName: string) => join(PRICES_DIR, `${regionName}.json`);

/** A region's prices, validated; a missing or malformed file is one ConfigError line. */
export function loadPrices(regionName: string): PriceFile {
  const file = priceFilePath(regionName);
  if (!existsSync(file))
    throw new ConfigError(`no prices for region ${regionName}: config/prices/${regionName}.json does not exist; priced regions: ${pricedRegions().join(', ')}`);
  const input = readJsonFile(
    file,
    `config/prices/${regionName}.json`,
    'a price file as `npm run cost -- --refresh-prices` writes it; `git checkout config/prices` restores the shipped one',
  );
  const parsed = priceFileSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(fileIssue(`config/prices/${regionName}.json`, parsed.error, input, priceFileSchema));
  if (parsed.data.region !== regionName) throw new ConfigError(`config/prices/${regionName}.json says region ${parsed.data.region}`);
  return parsed.data;
}

export function savePrices(file: PriceFile): void {
  writeFileAtomically(priceFilePath(file.region), `${JSON.stringify(priceFileSchema.parse(file), null, 2)}\n`);
}

/** One price, or a ConfigError naming the key, the region and the keys that exist. */
export function priceOf(file: PriceFile, key: string): Price {
  const p = file.prices[key];
  if (!p) {
    const keys = Object.keys(file.prices);
    throw new ConfigError(
      `no price "${key}" in config/prices/${file.region}.json${didYouMean(key, keys)}; add it, or run \`npm run cost -- --refresh-prices\`; it has: ${keys.join(', ')}`,
    );
  }
  return p;
}
