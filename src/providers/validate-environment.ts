/**
 * `ccc validate` for a user with no ccc provider: the environment is the setup. It says which
 * credentials claude will use and where its requests go; with `--network`, that the endpoint answers.
 */
import { environmentCredentials } from './environment-credentials.js';
import { checkEndpoint, formatReports, type EndpointProbe, type ProviderReport } from './validate-provider.js';

/** claude's endpoint when ANTHROPIC_BASE_URL is not set. */
const DEFAULT_ENDPOINT = 'https://api.anthropic.com';

export interface EnvironmentValidation {
  env: NodeJS.ProcessEnv;
  cwd: string;
  network: boolean;
  /** Where providers would go, for the hint. */
  configFile: string;
  out: NodeJS.WritableStream;
  probe?: EndpointProbe;
}

/** Prints the report; returns the exit code (0 valid, 2 not). */
export async function validateEnvironment(options: EnvironmentValidation): Promise<number> {
  const credentials = environmentCredentials({ env: options.env, cwd: options.cwd });
  const baseUrl = credentials?.baseUrl ?? options.env.ANTHROPIC_BASE_URL?.trim() ?? '';
  let report: ProviderReport = {
    name: 'environment',
    baseUrl: baseUrl || DEFAULT_ENDPOINT,
    problems: credentials ? [] : ['claude has no credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or run `claude` and log in with /login.'],
  };
  if (baseUrl && !/^https?:\/\/[^/\s]+/i.test(baseUrl))
    report.problems.push(`ANTHROPIC_BASE_URL ${JSON.stringify(baseUrl)} is not an http(s) URL: write it as https://host[/path].`);
  if (options.network && report.problems.length === 0) report = await checkEndpoint(report, { probe: options.probe });
  options.out.write(`No providers in ${options.configFile}: checking the environment claude runs with.\n`);
  options.out.write(`${formatReports([report])}\n`);
  if (credentials) options.out.write(`claude will use ${credentials.source}${baseUrl ? '' : ` against ${DEFAULT_ENDPOINT}`}.\n`);
  const ok = report.problems.length === 0;
  options.out.write(
    ok
      ? 'The environment is a valid setup.\n'
      : `Not valid. Add credentials, or a provider under "providers" in ${options.configFile} (see \`ccc providers\`).\n`,
  );
  return ok ? 0 : 2;
}
