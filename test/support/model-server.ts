/**
 * A scripted stand-in for the Anthropic Messages API. The real `claude` binary talks to it through
 * ANTHROPIC_BASE_URL and cannot tell the difference: it answers `POST /v1/messages` with the same
 * server-sent-event stream the real service sends.
 *
 * Each request is classified (agent turn, review, or background chatter such as title generation),
 * recorded, and answered by the scenario. Tests then assert on what the model really received.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type RequestKind = 'agent' | 'review' | 'goal' | 'background';

export interface RecordedRequest {
  kind: RequestKind;
  body: MessagesBody;
  /** All text of the request (system prompt and every message), for `includes` assertions. */
  text: string;
  /** Text of the last user message (what the model is asked now). */
  lastUserText: string;
  /** Number of earlier requests of the same kind (0 for the first). */
  index: number;
  /** `performance.now()` when the request began to arrive (for start-up timings). */
  receivedAt: number;
}

export interface MessagesBody {
  model?: string;
  system?: string | Array<{ type: string; text?: string }>;
  messages: Array<{ role: string; content: string | ContentBlock[] }>;
  tools?: Array<{ name: string }>;
  stream?: boolean;
  /** `format` asks for a JSON answer of a schema (claude's `/goal` evaluator does). */
  output_config?: { format?: { type: string; schema?: { properties?: Record<string, unknown> } } };
}

type ContentBlock = { type: string; text?: string; content?: unknown; [key: string]: unknown };

/** Token counts the scripted model reports for one answer (the real service's `usage`). */
export interface ScriptedUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/**
 * What the scripted model does for one request. A `verdict` is answered as the reviewer is asked
 * to (text ending with the JSON object), or by calling StructuredOutput when the request offers
 * that tool (`--json-schema`, as kanban agents use it).
 */
export type Reply = (
  | { text: string; delayMs?: number; /** Answered once this settles: holds a turn open while a test acts. */ until?: Promise<unknown> }
  | { toolUse: { name: string; input: Record<string, unknown> }; text?: string; delayMs?: number }
  | { verdict: { completed: boolean; feedback: string }; delayMs?: number }
  | { error: { status: number; message: string; type?: string; headers?: Record<string, string> } }
  | { hang: true }
) & { usage?: ScriptedUsage };

export type Scenario = (request: RecordedRequest) => Reply;

/** The `/goal` evaluator's answer (a `goal` request): met, not met with the reason the agent gets, or impossible. */
export function goalAnswer(answer: { ok: boolean; reason: string; impossible?: boolean }): Reply {
  return { text: JSON.stringify(answer) };
}

export interface ModelServer {
  url: string;
  requests: RecordedRequest[];
  byKind(kind: RequestKind): RecordedRequest[];
  /** Connections open now: none once every client is gone (and every request it completed is recorded). */
  connections(): number;
  close(): Promise<void>;
}

/**
 * `background`: how claude's background requests are answered (the session's title, for one);
 * `ok` by default.
 */
export async function startModelServer(scenario: Scenario, options: { background?: Scenario } = {}): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const receivedAt = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void answer(req, res, Buffer.concat(chunks).toString('utf8'), receivedAt);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string, receivedAt: number) {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/messages') {
      if (path === '/v1/messages/count_tokens') return json(res, 200, { input_tokens: 10 });
      return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: path } });
    }
    const body = JSON.parse(raw) as MessagesBody;
    const kind = classify(body);
    const recorded: RecordedRequest = {
      kind,
      body,
      text: allText(body),
      lastUserText: lastUserText(body),
      index: requests.filter((r) => r.kind === kind).length,
      receivedAt,
    };
    requests.push(recorded);
    const reply = kind === 'background' ? (options.background?.(recorded) ?? { text: 'ok' }) : scenario(recorded);
    await play(reply, body, res);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    byKind: (kind) => requests.filter((r) => r.kind === kind),
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The system prompt of claude's prompt-based Stop hook evaluator, which `/goal` is built on
 * (docs/design/claude-facts.md, "/goal"): it offers no tools and asks for `{"ok", "reason", "impossible"}`.
 */
const GOAL_EVALUATOR_MARK = 'You are evaluating a stop-condition hook in Claude Code';

/** The line ccc's review message carries (src/checkers/review-request.ts). */
export const REVIEW_MESSAGE_MARK = 'You are reviewing the work above';

/**
 * A review is a request whose conversation holds ccc's review message (its tools are the agent's
 * own, so they cannot tell), or one that offers StructuredOutput (`--json-schema`).
 */
function classify(body: MessagesBody): RequestKind {
  const tools = body.tools ?? [];
  if (systemText(body).includes(GOAL_EVALUATOR_MARK)) return 'goal';
  if (tools.some((t) => t.name === 'StructuredOutput')) return 'review';
  if (tools.length === 0) return 'background';
  if (userTexts(body).some((text) => text.includes(REVIEW_MESSAGE_MARK))) return 'review';
  return 'agent';
}

function blockText(content: string | ContentBlock[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => {
      if (typeof block.text === 'string') return block.text;
      if (typeof block.content === 'string') return block.content;
      if (Array.isArray(block.content)) return blockText(block.content as ContentBlock[]);
      return '';
    })
    .join('\n');
}

function systemText(body: MessagesBody): string {
  return typeof body.system === 'string' ? body.system : (body.system ?? []).map((s) => s.text ?? '').join('\n');
}

function allText(body: MessagesBody): string {
  return [systemText(body), ...body.messages.map((m) => blockText(m.content))].join('\n');
}

function lastUserText(body: MessagesBody): string {
  const users = body.messages.filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  return last ? blockText(last.content) : '';
}

/** The user-typed prompts of the conversation: user text blocks that are not tool results. */
export function userTexts(body: MessagesBody): string[] {
  return body.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.filter((b) => b.type === 'text').map((b) => b.text ?? '')));
}

/** True when the last user message carries a tool result (the model is being told what a tool did). */
export function isToolResultTurn(request: RecordedRequest): boolean {
  const last = request.body.messages[request.body.messages.length - 1];
  return !!last && Array.isArray(last.content) && last.content.some((b) => b.type === 'tool_result');
}

function json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

async function play(reply: Reply, body: MessagesBody, res: http.ServerResponse) {
  if ('hang' in reply) return; // never answers; the client's own timeout or kill ends it
  if ('error' in reply) {
    return json(
      res,
      reply.error.status,
      { type: 'error', error: { type: reply.error.type ?? 'api_error', message: reply.error.message } },
      reply.error.headers,
    );
  }
  if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
  if ('until' in reply && reply.until) await reply.until.catch(() => {});
  if (res.destroyed) return;
  const blocks: Array<{ type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown }> = [];
  const offersStructuredOutput = (body.tools ?? []).some((t) => t.name === 'StructuredOutput');
  if ('verdict' in reply && offersStructuredOutput) blocks.push({ type: 'tool_use', name: 'StructuredOutput', input: reply.verdict });
  else if ('verdict' in reply) blocks.push({ type: 'text', text: `I checked the work.\n\n${JSON.stringify(reply.verdict)}` });
  else if ('toolUse' in reply) {
    if (reply.text) blocks.push({ type: 'text', text: reply.text });
    blocks.push({ type: 'tool_use', ...reply.toolUse });
  } else blocks.push({ type: 'text', text: reply.text });
  writeStream(res, body.model ?? 'claude-sonnet-4-5', blocks, reply.usage);
}

let toolCounter = 0;

function writeStream(
  res: http.ServerResponse,
  model: string,
  blocks: Array<{ type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown }>,
  scripted: ScriptedUsage = {},
) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...scripted };
  send('message_start', {
    type: 'message_start',
    message: { id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      const id = `toolu_${Date.now()}_${toolCounter++}`;
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: block.name, input: {} } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  const stopReason = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}
