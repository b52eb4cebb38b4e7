// The observer page: mirrors the session's terminal with xterm.js and lists what the supervisor
// did. Reconnects with backoff; every (re)connection starts from the server's screen snapshot and
// event replay, so the page never has to patch old state. All text from the session is inserted
// with textContent: feedback and messages are untrusted.
(() => {
  'use strict';

  const token = new URLSearchParams(location.search).get('token') || '';
  const statusEl = document.getElementById('status');
  const sessionEl = document.getElementById('session');
  const timelineEl = document.getElementById('timeline');
  const term = new window.Terminal({
    cols: 80,
    rows: 24,
    scrollback: 10000,
    disableStdin: true,
    cursorBlink: false,
    fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, monospace',
    fontSize: 13,
  });
  term.open(document.getElementById('terminal'));

  // The session's terminal keeps its columns (its lines wrap where the user's do); a wide one
  // gets a smaller font so that all of it fits the pane's width instead of being cut off.
  const BASE_FONT = 13;
  const MIN_FONT = 6;
  const pane = document.querySelector('.terminal-pane');
  function fitWidth() {
    const screen = pane.querySelector('.xterm-screen');
    if (!screen || screen.offsetWidth === 0) return;
    const style = getComputedStyle(pane);
    const available = pane.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const current = term.options.fontSize;
    const fitted = Math.max(MIN_FONT, Math.min(BASE_FONT, Math.floor(((current * available) / screen.offsetWidth) * 10) / 10));
    if (fitted !== current) term.options.fontSize = fitted;
  }
  window.addEventListener('resize', () => {
    // From the base size again: a wider window may take a larger font back.
    term.options.fontSize = BASE_FONT;
    fitWidth();
  });

  let socket;
  let attempt = 0;
  let ended = false;
  let allowInput = false;

  term.onData((data) => {
    if (allowInput && socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'input', data }));
  });

  function setStatus(kind, text) {
    statusEl.className = `status ${kind}`;
    statusEl.textContent = text;
  }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`);
    socket = ws;
    let greeted = false;
    setStatus('connecting', attempt === 0 ? 'connecting…' : 'reconnecting…');
    ws.onmessage = (message) => {
      let data;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      if (data.type === 'hello' && !greeted) {
        greeted = true;
        attempt = 0;
        term.reset();
        timelineEl.replaceChildren();
        shownTask = undefined;
        setStatus('live', 'live');
      }
      handle(data);
    };
    ws.onclose = (event) => {
      if (ended || socket !== ws) return;
      const delay = Math.min(10000, 500 * 2 ** attempt);
      attempt += 1;
      const why = event.reason || `code ${event.code}`;
      setStatus('offline', `disconnected (${why}); retrying in ${Math.round(delay / 1000)}s`);
      setTimeout(connect, delay);
    };
  }

  function handle(message) {
    switch (message.type) {
      case 'hello':
        showSession(message.session);
        allowInput = message.input === true;
        term.options.disableStdin = !allowInput;
        if (term.cols !== message.session.cols || term.rows !== message.session.rows) term.resize(message.session.cols, message.session.rows);
        fitWidth();
        return;
      case 'pty':
        term.write(base64Bytes(message.data));
        return;
      case 'event':
        addEvent(message.event);
        return;
      case 'bye':
        ended = true;
        setStatus('ended', 'session ended');
        socket.close(1000, 'bye');
        return;
      default:
        return; // frames and anything newer: the timeline shows events only
    }
  }

  function base64Bytes(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  function showSession(session) {
    const fields = [
      ['session', session.session_id || '(starting)'],
      ['cwd', session.cwd],
      ['command', (session.command || []).join(' ')],
      ['size', `${session.cols}×${session.rows}`],
    ];
    sessionEl.replaceChildren(
      ...fields.map(([name, value]) => {
        const item = document.createElement('div');
        const dt = document.createElement('dt');
        const dd = document.createElement('dd');
        dt.textContent = name;
        dd.textContent = inert(value);
        dd.title = dd.textContent;
        item.append(dt, dd);
        return item;
      }),
    );
  }

  /**
   * Each outcome's sign, as src/checkers/verdict-look.ts draws it: only `verified` is a success; an
   * outcome the page does not know is drawn as unverified, never as a success.
   */
  const SIGNS = { verified: '✓', focused: '◐', 'tests-changed': '⚠', unverified: '⚠', failed: '✗' };

  /** verified, focused, tests-changed, unverified or failed: the server's word (src/checkers/verification.ts). */
  function outcomeOf(event) {
    if (typeof event.verification === 'string' && Object.hasOwn(SIGNS, event.verification)) return event.verification;
    return event.completed === true ? 'unverified' : 'failed';
  }

  /** `, verified by: npm test (12 tests)`: what the verdict rests on, in the words the server gives every report. */
  function evidenceText(event) {
    return typeof event.verification_details === 'string' && event.verification_details ? `, ${event.verification_details}` : '';
  }

  /** `; review $0.0123, 96% of 51,200 input tokens from cache`: the same text as src/claude/usage.ts. */
  function costText(usage) {
    if (!usage || typeof usage.cost_usd !== 'number') return '';
    const input = [usage.input_tokens, usage.cache_read_input_tokens, usage.cache_creation_input_tokens].reduce((sum, n) => sum + (Number(n) || 0), 0);
    const share = input === 0 ? 0 : (Number(usage.cache_read_input_tokens) || 0) / input;
    return `; review ${dollars(usage.cost_usd)}, ${Math.round(share * 100)}% of ${input.toLocaleString('en-US')} input tokens from cache`;
  }

  /** `$0.0061`, `$1.250`: the same text as src/claude/usage.ts. */
  function dollars(usd) {
    return `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(3)}`;
  }

  /** `45 s`, `12 min`. */
  function span(ms) {
    return ms >= 90000 ? `${Math.round(ms / 60000)} min` : `${Math.round(ms / 1000)} s`;
  }

  /** `; spent $0.412 of $5.000`: what the run spent against its cap, when the event says so (absent from an older ccc). */
  function spendText(event) {
    const usd = (n) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? dollars(n) : '');
    const spent = usd(event.spent_usd);
    const cap = usd(event.cap_usd);
    return spent ? `; spent ${spent}${cap ? ` of ${cap}` : ''}` : '';
  }

  /** `Read src/a.ts · Bash npm test · +3 more`: the same text as src/observer/event-text.ts. */
  function toolsText(event) {
    const calls = Array.isArray(event.calls) ? event.calls : [];
    const listed = calls.map((call) => (call.input ? `${call.name} ${call.input}` : String(call.name)));
    return [...listed, ...(event.more > 0 ? [`+${event.more} more`] : [])].join(' · ');
  }

  const who = (event) => (event.who === 'agent' ? "the agent's turn" : 'the review');

  function describe(event) {
    switch (event.kind) {
      case 'start':
      case 'task':
        return { title: 'Task', detail: clip(event.task, TASK_CHARS) };
      case 'tools':
        return { title: `Agent: ${toolsText(event)}` };
      case 'phase':
        return { title: `Phase: ${event.phase}` };
      case 'iteration':
        return { title: `Iteration ${event.n}/${event.max}` };
      case 'verdict':
        return {
          title: `${SIGNS[outcomeOf(event)]} ${event.checker}: ${event.completed ? 'completed' : 'not completed'} (iteration ${event.iteration}${evidenceText(event)})${costText(event.usage)}${spendText(event)}`,
          detail: event.feedback,
        };
      case 'checker': {
        const took = typeof event.duration_ms === 'number' ? ` after ${(event.duration_ms / 1000).toFixed(1)} s` : '';
        const state = event.state === 'start' ? 'reviewing…' : event.state === 'done' ? `done${took}` : `failed${took}`;
        return { title: `${event.checker}: ${state}` };
      }
      case 'stopped':
        return { title: `Supervisor stopped (${event.reason})`, detail: event.message };
      case 'waiting':
        return {
          title: `Waiting on the model's limit until ${new Date(event.until).toLocaleTimeString()}, then resuming ${who(event)}`,
          detail: event.message,
        };
      case 'wait-over':
        return {
          title: event.outcome === 'resumed' ? `Wait over: resuming ${who(event)}` : `Gave up waiting on the model's limit after ${span(event.waited_ms)}`,
        };
      case 'wind-down':
        return {
          title: `Winding down (${event.reason})`,
          detail: `${event.message}: the agent writes down where the work stands (one last turn, not reviewed)`,
        };
      case 'error':
        return { title: `Error: ${event.message}` };
      case 'end':
        return { title: `Session ended (exit code ${event.exit_code === null ? 'none' : event.exit_code})${spendText(event)}` };
      default:
        return { title: String(event.kind) };
    }
  }

  const TASK_CHARS = 500;

  function clip(text, max) {
    const value = String(text ?? '');
    return value.length > max ? `${value.slice(0, max - 1)}…` : value;
  }

  /** Model text shown as text: every control character but newlines and tabs becomes a space (src/pty/inert-text.ts). */
  function inert(text) {
    return String(text).replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, ' ');
  }

  // The task last shown: a review of another task (interactive: the user typed a new one) shows it first.
  let shownTask;

  function addEvent(event) {
    // Compared as a review's events carry it: trimmed and clipped.
    if (event.kind === 'start') shownTask = clip(String(event.task).trim(), TASK_CHARS);
    if (event.kind !== 'start' && event.kind !== 'task' && typeof event.task === 'string' && event.task !== shownTask) {
      shownTask = event.task;
      addEvent({ kind: 'task', task: event.task, at: event.at });
    }
    const { title, detail } = describe(event);
    const item = document.createElement('li');
    item.className = 'event';
    item.dataset.kind = String(event.kind);
    if (event.kind === 'verdict') {
      item.dataset.completed = String(event.completed);
      item.dataset.verification = outcomeOf(event);
    }
    const time = document.createElement('time');
    time.dateTime = event.at;
    const date = new Date(event.at);
    time.textContent = Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString();
    const heading = document.createElement('div');
    heading.className = 'title';
    heading.textContent = inert(title);
    item.append(time, heading);
    if (detail) {
      const pre = document.createElement('pre');
      pre.textContent = inert(detail);
      item.append(pre);
    }
    const pinned = timelineEl.parentElement.scrollHeight - timelineEl.parentElement.scrollTop - timelineEl.parentElement.clientHeight < 40;
    timelineEl.append(item);
    if (pinned) item.scrollIntoView({ block: 'end' });
  }

  connect();
})();
