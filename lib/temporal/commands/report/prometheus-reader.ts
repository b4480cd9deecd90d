import { Sha256 } from '@aws-crypto/sha256-js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';

/*
 * The Prometheus HTTP API's range query (`/api/v1/query_range`), as Amazon Managed Service for
 * Prometheus serves it for a workspace and any Prometheus server serves it on its own. Requests
 * to a workspace are signed with SigV4 for service `aps` by the AWS SDK's own signer and
 * credential chain; only a loopback endpoint (a local Prometheus) goes unsigned.
 */

/** Prometheus refuses a range query that would return more than 11,000 points per series. */
const MAX_POINTS_PER_SERIES = 11_000;
/** What the report draws at most per series: one point a pixel and a half on a 960-pixel chart. */
const TARGET_POINTS = 600;

/** One series of a range query's answer: its labels and its points (epoch ms, value). */
export interface RangeSeries {
  readonly labels: Readonly<Record<string, string>>;
  readonly t: readonly number[];
  readonly v: readonly number[];
}

export interface PrometheusEndpoint {
  /** The API's base: `https://aps-workspaces.<region>.amazonaws.com/workspaces/<id>` or `http://127.0.0.1:9090`. */
  readonly url: string;
  /** The region a workspace is signed for; absent for an endpoint that is not signed. */
  readonly region?: string;
}

/** The workspace's query endpoint, from the stack's `PrometheusWorkspaceId` output. */
export function workspaceEndpoint(region: string, workspaceId: string): PrometheusEndpoint {
  return { url: `https://aps-workspaces.${region}.amazonaws.com/workspaces/${workspaceId}`, region };
}

/** Loopback only: a local Prometheus is read unsigned, anything else is signed for `aps`. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The step of a window's range queries: at least `minStep` (four scrapes, so that every rate
 * spans enough samples), at most TARGET_POINTS points, and a whole number of seconds.
 */
export function rangeStep(windowSeconds: number, minStepSeconds: number): number {
  const step = Math.max(minStepSeconds, Math.ceil(windowSeconds / TARGET_POINTS / minStepSeconds) * minStepSeconds);
  if (windowSeconds / step > MAX_POINTS_PER_SERIES)
    throw new Error(`a step of ${step} s gives more than ${MAX_POINTS_PER_SERIES} points for ${windowSeconds} s`);
  return step;
}

export type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/** Why a query could not be answered: the endpoint's own words, one line. */
export class PrometheusError extends Error {
  override name = 'PrometheusError';
}

export interface RangeQuery {
  readonly query: string;
  readonly start: Date;
  readonly end: Date;
  readonly stepSeconds: number;
}

/**
 * Runs range queries against one endpoint. A POST with a form body, as the API allows, so
 * that long queries need no URL encoding limits; signed when the endpoint has a region.
 * @iamActions aps:QueryMetrics
 */
export class PrometheusReader {
  private readonly signer?: SignatureV4;

  constructor(
    readonly endpoint: PrometheusEndpoint,
    private readonly fetcher: Fetch = fetch as unknown as Fetch,
    credentials = defaultProvider(),
  ) {
    if (endpoint.region) this.signer = new SignatureV4({ service: 'aps', region: endpoint.region, credentials, sha256: Sha256 });
    else if (!isLoopback(endpoint.url)) throw new PrometheusError(`${endpoint.url} is not on loopback: only a local Prometheus is read without SigV4 signing`);
  }

  async queryRange(q: RangeQuery): Promise<RangeSeries[]> {
    const url = new URL(`${this.endpoint.url.replace(/\/$/, '')}/api/v1/query_range`);
    const body = new URLSearchParams({
      query: q.query,
      start: String(q.start.getTime() / 1000),
      end: String(q.end.getTime() / 1000),
      step: `${q.stepSeconds}s`,
    }).toString();
    let headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', host: url.host };
    if (this.signer) {
      const signed = await this.signer.sign({
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: url.pathname,
        headers,
        body,
      });
      headers = signed.headers as Record<string, string>;
    }
    const response = await this.fetcher(url.toString(), { method: 'POST', headers, body, signal: AbortSignal.timeout(60_000) });
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      throw new PrometheusError(`${url.host} answered HTTP ${response.status}: ${text.split('\n')[0].slice(0, 200)}`);
    }
    if (!response.ok || json.status !== 'success')
      throw new PrometheusError(
        `${url.host} answered HTTP ${response.status}${json.errorType ? ` (${json.errorType})` : ''}: ${String(json.error ?? json.message ?? text)
          .split('\n')[0]
          .slice(0, 300)}`,
      );
    if (json.data?.resultType !== 'matrix') throw new PrometheusError(`${url.host} answered a ${json.data?.resultType} to a range query (valid: matrix)`);
    return (json.data.result as { metric: Record<string, string>; values: [number, string][] }[]).map((s) => {
      const points = s.values.map(([t, v]) => [t * 1000, Number(v)] as const).filter(([, v]) => Number.isFinite(v));
      return { labels: s.metric, t: points.map(([t]) => t), v: points.map(([, v]) => v) };
    });
  }
}
