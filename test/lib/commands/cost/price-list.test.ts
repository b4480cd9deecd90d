import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing';
import { mockClient } from 'aws-sdk-client-mock';
import { loadPrices } from '../../../../config/prices';
import { onDemandUsd, queryFor, refreshPrices } from '../../../../lib/commands/cost/price-list';

/* The Price List refresh against recorded-shape GetProducts answers. */

const pricing = mockClient(PricingClient);
const answers: Record<string, string[]> = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/price-list/get-products-eu-west-1.json'), 'utf8')).answers;

beforeEach(() => {
  pricing.reset();
  pricing.on(GetProductsCommand).callsFake((input) => {
    const f = Object.fromEntries(input.Filters.map((x: { Field: string; Value: string }) => [x.Field, x.Value]));
    const key = `${input.ServiceCode} ${f.instanceType ?? f.productFamily}`;
    return { PriceList: answers[key] ?? [], FormatVersion: 'aws_v1' };
  });
});

test('refreshes what the API answers with one price, keeps the rest, and says why', async () => {
  const before = loadPrices('eu-west-1');
  const { file, outcomes } = await refreshPrices(new PricingClient({ region: 'us-east-1' }), before, '2026-11-21');
  const by = Object.fromEntries(outcomes.map((o) => [o.key, o]));

  expect(by['ec2:m7g.2xlarge']).toEqual({ key: 'ec2:m7g.2xlarge', status: 'refreshed', before: 0.3638, after: 0.364, why: 'EU-BoxUsage:m7g.2xlarge' });
  expect(file.prices['ec2:m7g.2xlarge']).toEqual({
    usd: 0.364,
    per: 'instance-hour',
    asOf: '2026-11-21',
    source: 'AWS Price List API: AmazonEC2 EU-BoxUsage:m7g.2xlarge',
  });
  expect(by['opensearch:m6g.large.search'].status).toBe('refreshed');
  // NAT: the hourly product, not the per-GB one.
  expect(by['vpc:nat-gateway']).toMatchObject({ status: 'refreshed', after: 0.048, why: 'EU-NatGateway-Hours' });
  // Two endpoint products with different hourly prices: ambiguous, so the old price stays.
  expect(by['vpc:interface-endpoint']).toMatchObject({ status: 'kept', why: '2 different prices for AmazonVPC productFamily=VpcEndpoint' });
  expect(by['ec2:m7g.4xlarge']).toMatchObject({
    status: 'kept',
    why: expect.stringMatching(/^no product for AmazonEC2 instanceType=m7g.4xlarge, operatingSystem=Linux/),
  });
  expect(by['dsql:dpu']).toMatchObject({ status: 'kept', why: expect.stringMatching(/^no Price List query for this key; source: seed 000/) });
  expect(file.prices['dsql:dpu']).toEqual(before.prices['dsql:dpu']);
  expect(Object.keys(file.prices)).toEqual(Object.keys(before.prices));
});

test('the EC2 query pins the on-demand Linux shared-tenancy price of the region', () => {
  expect(queryFor('ec2:m7g.2xlarge', 'eu-west-1')).toMatchObject({
    serviceCode: 'AmazonEC2',
    filters: {
      regionCode: 'eu-west-1',
      instanceType: 'm7g.2xlarge',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
      preInstalledSw: 'NA',
      capacitystatus: 'Used',
    },
  });
  expect(queryFor('rds:serverless-v2-acu', 'us-east-1')).toMatchObject({
    serviceCode: 'AmazonRDS',
    filters: { productFamily: 'ServerlessV2', databaseEngine: 'Aurora PostgreSQL' },
  });
  expect(queryFor('cloudwatch:metric', 'eu-west-1')).toBeUndefined();
});

test('onDemandUsd reads the first tier of the on-demand terms', () => {
  expect(onDemandUsd(JSON.parse(answers['AmazonEC2 m7g.2xlarge'][0]))).toBe(0.364);
  expect(onDemandUsd({ terms: {} })).toBeUndefined();
});
