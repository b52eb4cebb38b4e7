/**
 * A scripted stand-in for the OpenAI Responses API, which the Codex CLI speaks: the real `codex`
 * binary is pointed at it by a provider of its own (`base_url`, `env_key`, `wire_api =
 * "responses"`: `supervisor.codex.base_url` does that) and cannot tell the difference. It answers
 * `POST /v1/responses` (with `Authorization: Bearer <the env key>`) with the server-sent events the
 * real service sends: `response.created`, `response.output_item.added`/`done` for each output
 * item (a message, or an `exec_command` function call), `response.completed` with the usage.
 *
 * Each request is recorded (its body, all of its text, the outputs of the commands codex ran for
 * the model) and answered by the scenario, so tests assert on what the model really received.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface ResponsesBody {
  model?: string;
  input: Array<Record<string, unknown>>;
  tools?: Array<{ name?: string; type?: string }>;
  /** `--output-schema`: `{ format: { type: 'json_schema', schema, strict, name } }`. */
  text?: { format?: { type?: string; schema?: unknown; strict?: boolean } };
}

export interface ResponsesRequest {
  body: ResponsesBody;
  /** Every text of the input: the instructions, the user's message, the commands' outputs. */
  text: string;
  /** The outputs codex sent back for the model's function calls, in order (what the commands printed). */
  toolOutputs: string[];
  authorization?: string;
  /** Codex's `thread-id` header: one per `codex exec` run (a review and its retries). */
  threadId?: string;
  /** 0 for the first request. */
  index: number;
}

/** Token counts of one answer, as the real service's `usage` reports them. */
interface ScriptedTokens {
  input_tokens?: number;
  cached_tokens?: number;
  output_tokens?: number;
}

export type ResponsesReply = (
  | { commands: string[] }
  | { verdict: { completed: boolean; feedback: string } }
  | { text: string }
  | { error: { status: number; message: string; code?: string; type?: string; headers?: Record<string, string> } }
  | { hang: true }
) & { usage?: ScriptedTokens };

export type ResponsesScenario = (request: ResponsesRequest) => ResponsesReply;

export interface ResponsesServer {
  /** The API base, `…/v1`. */
  url: string;
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

export async function startResponsesServer(scenario: ResponsesScenario): Promise<ResponsesServer> {
  const requests: ResponsesRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/responses') return json(res, 404, { error: { message: `no ${req.url}` } });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ResponsesBody;
      const request: ResponsesRequest = {
        body,
        text: textOf(body.input),
        toolOutputs: body.input.filter((i) => i.type === 'function_call_output').map((i) => outputText(i.output)),
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        ...(typeof req.headers['thread-id'] === 'string' ? { threadId: req.headers['thread-id'] } : {}),
        index: requests.length,
      };
      requests.push(request);
      play(scenario(request), res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let counter = 0;

function play(reply: ResponsesReply, res: http.ServerResponse): void {
  if ('hang' in reply) return; // never answers: the client's own timeout, or ccc's, ends it
  if ('error' in reply) {
    const { status, message, code, type, headers } = reply.error;
    return json(res, status, { error: { message, type: type ?? 'server_error', ...(code ? { code } : {}) } }, headers);
  }
  const id = `resp_${++counter}`;
  const items =
    'commands' in reply
      ? reply.commands.map((cmd) => ({
          type: 'function_call',
          id: `fc_${++counter}`,
          call_id: `call_${counter}`,
          name: 'exec_command',
          arguments: JSON.stringify({ cmd }),
        }))
      : [
          {
            type: 'message',
            id: `msg_${++counter}`,
            role: 'assistant',
            content: [{ type: 'output_text', text: 'verdict' in reply ? JSON.stringify(reply.verdict) : reply.text }],
          },
        ];
  const tokens = { input_tokens: 1000, cached_tokens: 0, output_tokens: 20, ...reply.usage };
  const usage = {
    input_tokens: tokens.input_tokens,
    input_tokens_details: { cached_tokens: tokens.cached_tokens },
    output_tokens: tokens.output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens.input_tokens + tokens.output_tokens,
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: { type: string } & Record<string, unknown>) => res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  send({ type: 'response.created', response: { id, status: 'in_progress' } });
  items.forEach((item, output_index) => {
    send({ type: 'response.output_item.added', output_index, item });
    send({ type: 'response.output_item.done', output_index, item });
  });
  send({ type: 'response.completed', response: { id, status: 'completed', usage } });
  res.end();
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    return [v.text, v.output, v.content].map(textOf).filter(Boolean).join('\n');
  }
  return '';
}

function outputText(output: unknown): string {
  return typeof output === 'string' ? output : textOf(output);
}

function json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
