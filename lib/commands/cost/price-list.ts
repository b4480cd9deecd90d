import { type Filter, paginateGetProducts, type PricingClient } from '@aws-sdk/client-pricing';
import type { Price, PriceFile } from '../../../config/prices';

/*
 * Refreshes config/prices from the AWS Price List API (pricing:GetProducts). Each price key
 * maps to one query; the answer must be exactly one on-demand price, or the key keeps its
 * old value and the refresh says why. Keys with no query (usage prices such as DSQL DPUs,
 * whose product attributes are not pinned down here) keep their recorded source.
 */

interface Query {
  readonly serviceCode: string;
  readonly filters: Readonly<Record<string, string>>;
  /** Picks the product among those the filters return, by its usage type. */
  readonly usageType: RegExp;
  readonly describe: string;
}

/** The Price List query for a price key in a region, or undefined when there is none. */
export function queryFor(key: string, regionCode: string): Query | undefined {
  const [service, item] = key.split(':');
  const q = (serviceCode: string, filters: Record<string, string>, usageType: RegExp): Query => ({
    serviceCode,
    filters: { regionCode, ...filters },
    usageType,
    describe: `${serviceCode} ${Object.entries(filters)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
  });
  switch (service) {
    case 'ec2':
      return q(
        'AmazonEC2',
        { instanceType: item, operatingSystem: 'Linux', tenancy: 'Shared', preInstalledSw: 'NA', capacitystatus: 'Used', licenseModel: 'No License required' },
        /BoxUsage:/,
      );
    case 'opensearch':
      return item === 'gp3'
        ? q('AmazonES', { productFamily: 'Amazon OpenSearch Service Volume', storageMedia: 'GP3' }, /ES:GP3-Storage$/)
        : q('AmazonES', { instanceType: item }, /ESInstance:/);
    case 'rds': {
      if (item === 'storage') return undefined;
      // `-iopt1`: the same compute on I/O-Optimized storage, a usage type of its own.
      const iopt = item.endsWith('-iopt1');
      const base = iopt ? item.slice(0, -'-iopt1'.length) : item;
      return base === 'serverless-v2-acu'
        ? q(
            'AmazonRDS',
            { productFamily: 'ServerlessV2', databaseEngine: 'Aurora PostgreSQL' },
            iopt ? /Aurora:ServerlessV2IOOptimizedUsage$/ : /Aurora:ServerlessV2Usage$/,
          )
        : q(
            'AmazonRDS',
            { instanceType: base, databaseEngine: 'Aurora PostgreSQL', deploymentOption: 'Single-AZ' },
            iopt ? /InstanceUsageIOOptimized:db\./ : /InstanceUsage:db\./,
          );
    }
    case 'vpc':
      if (item === 'nat-gateway') return q('AmazonEC2', { productFamily: 'NAT Gateway' }, /NatGateway-Hours$/);
      if (item === 'interface-endpoint') return q('AmazonVPC', { productFamily: 'VpcEndpoint' }, /VpcEndpoint-Hours$/);
      if (item === 'nat-processing') return q('AmazonEC2', { productFamily: 'NAT Gateway' }, /NatGateway-Bytes$/);
      if (item === 'endpoint-processing') return q('AmazonVPC', { productFamily: 'VpcEndpoint' }, /VpcEndpoint-Bytes$/);
      return undefined;
    default:
      return undefined;
  }
}

export interface RefreshOutcome {
  readonly key: string;
  readonly status: 'refreshed' | 'kept';
  readonly before: number;
  readonly after: number;
  readonly why: string;
}

/** The on-demand USD price of one Price List product, first tier. */
export function onDemandUsd(product: any): number | undefined {
  const terms = Object.values<any>(product?.terms?.OnDemand ?? {});
  const dimensions = terms.flatMap((t) => Object.values<any>(t.priceDimensions ?? {}));
  const first = dimensions.find((d) => d.beginRange === undefined || d.beginRange === '0') ?? dimensions[0];
  const value = Number(first?.pricePerUnit?.USD);
  return Number.isFinite(value) ? value : undefined;
}

async function products(client: PricingClient, query: Query): Promise<any[]> {
  const Filters: Filter[] = Object.entries(query.filters).map(([Field, Value]) => ({ Type: 'TERM_MATCH', Field, Value }));
  const out: any[] = [];
  for await (const page of paginateGetProducts({ client }, { ServiceCode: query.serviceCode, Filters, FormatVersion: 'aws_v1' }))
    for (const item of (page.PriceList ?? []) as unknown[]) out.push(typeof item === 'string' ? JSON.parse(item) : item);
  return out;
}

/** Asks the Price List API for every key it has a query for; returns the new file and what happened to each key. */
export async function refreshPrices(
  client: PricingClient,
  file: PriceFile,
  today: string,
  onKey?: (key: string) => void,
): Promise<{ file: PriceFile; outcomes: RefreshOutcome[] }> {
  const prices: Record<string, Price> = {};
  const outcomes: RefreshOutcome[] = [];
  for (const [key, old] of Object.entries(file.prices)) {
    onKey?.(key);
    const query = queryFor(key, file.region);
    const kept = (why: string) => {
      prices[key] = old;
      outcomes.push({ key, status: 'kept', before: old.usd, after: old.usd, why });
    };
    if (!query) {
      kept(`no Price List query for this key; source: ${old.source}`);
      continue;
    }
    const matching = (await products(client, query)).filter((p) => query.usageType.test(p?.product?.attributes?.usagetype ?? ''));
    const values = [...new Set(matching.map(onDemandUsd).filter((v): v is number => v !== undefined))];
    if (values.length !== 1) {
      kept(`${values.length === 0 ? 'no product' : `${values.length} different prices`} for ${query.describe}`);
      continue;
    }
    const usageType = matching[0].product.attributes.usagetype;
    prices[key] = { ...old, usd: values[0], asOf: today, source: `AWS Price List API: ${query.serviceCode} ${usageType}` };
    outcomes.push({ key, status: 'refreshed', before: old.usd, after: values[0], why: usageType });
  }
  return { file: { ...file, prices }, outcomes };
}
