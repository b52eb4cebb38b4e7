/**
 * `ccc validate`: checks that a provider can work before the user finds out in the middle of a
 * session. Offline checks: a base URL (`ANTHROPIC_BASE_URL`, well-formed http/https) and a key or
 * token (`ANTHROPIC_API_KEY` or `ANTHROPIC_AUTH_TOKEN`). With `network`, the endpoint must answer
 * an HTTP request (any status below 500 counts: the request carries no credentials, so 401/404
 * only prove something is listening there).
 */
import type { ProviderConfig } from '../config/types.js';
import { errorText } from '../errors.js';

export interface ProviderReport {
  name: string;
  baseUrl?: string;
  /** What is wrong, each with how to fix it. Empty = valid. */
  problems: string[];
  /** Result of the network check, when one ran and succeeded. */
  reached?: string;
}

/** The network edge: one request to a URL, aborted by `signal`. Real one below; tests use a local server. */
export type EndpointProbe = (url: string, signal: AbortSignal) => Promise<{ status: number }>;

export const fetchProbe: EndpointProbe = async (url, signal) => {
  const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal });
  await response.body?.cancel();
  return { status: response.status };
};

export function checkProviderConfig(name: string, provider: ProviderConfig): ProviderReport {
  const env = provider.env ?? {};
  const problems: string[] = [];
  const where = `providers.${name}.env`;
  const baseUrl = nonEmpty(env.ANTHROPIC_BASE_URL);
  if (!baseUrl) problems.push(`ANTHROPIC_BASE_URL is missing: add the provider's endpoint to ${where}.`);
  else if (!isHttpUrl(baseUrl)) problems.push(`ANTHROPIC_BASE_URL ${JSON.stringify(baseUrl)} is not an http(s) URL: write it as https://host[/path].`);
  if (!nonEmpty(env.ANTHROPIC_API_KEY) && !nonEmpty(env.ANTHROPIC_AUTH_TOKEN)) {
    problems.push(`no key: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN in ${where}.`);
  }
  return { name, baseUrl, problems };
}

export async function checkEndpoint(report: ProviderReport, options: { probe?: EndpointProbe; timeoutMs?: number } = {}): Promise<ProviderReport> {
  if (!report.baseUrl || !isHttpUrl(report.baseUrl)) return report;
  const probe = options.probe ?? fetchProbe;
  const timeoutMs = options.timeoutMs ?? 5000;
  const started = Date.now();
  try {
    const { status } = await probe(report.baseUrl, AbortSignal.timeout(timeoutMs));
    const took = `${Date.now() - started} ms`;
    if (status >= 500)
      return { ...report, problems: [...report.problems, `${report.baseUrl} answered HTTP ${status} (a server error): the endpoint is down or wrong.`] };
    return { ...report, reached: `answered HTTP ${status} in ${took}` };
  } catch (error) {
    const why = isTimeout(error) ? `no answer within ${timeoutMs} ms` : describeFetchError(error);
    return { ...report, problems: [...report.problems, `${report.baseUrl} cannot be reached (${why}): check the URL and your network.`] };
  }
}

export function formatReports(reports: ProviderReport[]): string {
  const width = Math.max(...reports.map((r) => r.name.length));
  return reports
    .map((report) => {
      const status = (report.problems.length === 0 ? 'ok' : 'INVALID').padEnd(7);
      const head = `${report.name.padEnd(width)}  ${status}  ${report.baseUrl ?? '(no base URL)'}`;
      const lines = report.reached ? [`${head} (${report.reached})`] : [head];
      for (const problem of report.problems) lines.push(`${' '.repeat(width)}  - ${problem}`);
      return lines.join('\n');
    })
    .join('\n');
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** fetch hides the reason in `cause` (ECONNREFUSED, ENOTFOUND…). */
function describeFetchError(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? errorText(error);
}
