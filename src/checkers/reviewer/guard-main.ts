/**
 * The reviewer guard's process: `node dist/checkers/reviewer/guard-main.js`, run by claude before
 * each of the reviewer's tool calls. It imports nothing heavy: it starts once per tool call.
 * Exit 2 on any failure refuses the call (fail closed).
 */
import { guardAnswer, POLICY_ENV } from './guard-hook.js';
import { errorText } from '../../errors.js';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
try {
  process.stdout.write(guardAnswer(Buffer.concat(chunks).toString('utf8'), process.env[POLICY_ENV]) + '\n');
} catch (error) {
  process.stderr.write(`ccc reviewer guard: ${errorText(error)}; the tool call is refused\n`);
  process.exitCode = 2;
}
