/**
 * The run as text: one table per measurement for the console, and bench/RESULTS.md with the
 * machine, the date and the targets. Both are rendered from the results JSON, so what is printed
 * and what is committed cannot disagree.
 */
import { ratio } from './stats.mjs';
import { VARIANTS } from './variants.mjs';

const f = (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
const us = (x) => (Number.isFinite(x) ? `${Math.round(x)}` : '—');
const times = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');

function table(header, rows) {
  return { header, rows };
}

/** The tables of a run, as { title, header, rows, notes } with every cell a string. */
export function tablesOf(r) {
  const tables = [];
  const label = (id) => VARIANTS.find((v) => v.id === id)?.label ?? id;
  if (r.keystroke) {
    const a = r.keystroke.direct ?? {};
    const b = r.keystroke.script ?? {};
    const rows = [];
    const notes = [];
    for (const { id } of VARIANTS) {
      const x = r.keystroke[id];
      if (!x) continue;
      if ('unavailable' in x) {
        notes.push(`${label(id)}: not measured: ${x.unavailable}`);
        continue;
      }
      rows.push([
        label(id),
        us(x.p50),
        us(x.p90),
        us(x.p99),
        us(x.max),
        times(ratio(x.p50, a.p50)),
        times(ratio(x.p50, b.p50)),
        times(ratio(x.p99, a.p99)),
        f(x.proxyCpuMsPer1000, 0),
      ]);
    }
    const ks = (id) => (r.keystroke[id] && 'p50' in r.keystroke[id] ? r.keystroke[id] : undefined);
    const [c, n, ref] = [ks('ccc-sup'), ks('ccc-sup-node'), ks('node-pty')];
    if (c && n)
      notes.push(
        `(c) ÷ (n), the native relay against ccc's Node proxy: p50 ${times(ratio(c.p50, n.p50))}, p99 ${times(ratio(c.p99, n.p99))}, CPU ${times(ratio(c.proxyCpuMsPer1000, n.proxyCpuMsPer1000))}.`,
      );
    if (n && ref)
      notes.push(
        `(n) ÷ (r), what ccc's Node proxy adds over a bare node-pty proxy: p50 ${times(ratio(n.p50, ref.p50))}, p99 ${times(ratio(n.p99, ref.p99))}, CPU ${times(ratio(n.proxyCpuMsPer1000, ref.proxyCpuMsPer1000))}.`,
      );
    tables.push({
      title: `Keystroke round trip (µs, ${r.config.keystrokes} keystrokes per variant, one at a time, variants alternating)`,
      ...table(['variant', 'p50', 'p90', 'p99', 'max', 'p50/(a)', 'p50/(b)', 'p99/(a)', 'proxy CPU ms/1000 keys'], rows),
      notes,
    });
  }
  if (r.throughput) {
    const rows = [];
    const notes = [];
    for (const { id } of VARIANTS) {
      const x = r.throughput[id];
      if (!x) continue;
      if ('unavailable' in x) {
        notes.push(`${label(id)}: not measured: ${x.unavailable}`);
        continue;
      }
      const toDirect = id === 'direct' ? 1 : (x.vsDirect ?? ratio(x.mbPerS, r.throughput.direct?.mbPerS));
      const toScript = id === 'script' ? 1 : (x.vsScript ?? ratio(x.mbPerS, r.throughput.script?.mbPerS));
      rows.push([label(id), f(x.mbPerS, 1), times(toDirect), times(toScript), f(x.proxyCpuMsPerMiB, 1), x.runs.join(' / ')]);
    }
    const tp = (id) => (r.throughput[id] && 'mbPerS' in r.throughput[id] ? r.throughput[id] : undefined);
    const [c, n, ref] = [tp('ccc-sup'), tp('ccc-sup-node'), tp('node-pty')];
    if (c && n)
      notes.push(
        `(c) ÷ (n), the native relay against ccc's Node proxy: ${times(ratio(c.mbPerS, n.mbPerS))} the throughput, ${times(ratio(c.proxyCpuMsPerMiB, n.proxyCpuMsPerMiB))} the CPU per MiB.`,
      );
    if (n && ref)
      notes.push(
        `(n) ÷ (r), ccc's Node proxy against a bare node-pty proxy: ${times(ratio(n.mbPerS, ref.mbPerS))} the throughput, ${times(ratio(n.proxyCpuMsPerMiB, ref.proxyCpuMsPerMiB))} the CPU per MiB.`,
      );
    notes.push(
      "/(a) and /(b): the median of each repetition's own ratio (the floods of a repetition run back to back; the order reverses every other repetition).",
    );
    tables.push({
      title: `Throughput (${r.config.throughputMiB} MiB of text lines, median of ${r.config.throughputReps})`,
      ...table(['variant', 'MiB/s', '/(a)', '/(b)', 'proxy CPU ms/MiB', 'runs MiB/s'], rows),
      notes,
    });
  }
  if (r.startup) tables.push(startupTable(r.startup));
  if (r.hook) {
    const rows = [['node -e 0 (floor)', f(r.hook.floorMs, 1), '1.00×', r.hook.floorRuns.length]];
    const notes = [];
    for (const [name, x] of Object.entries(r.hook.cases)) {
      if ('unavailable' in x) notes.push(`${name}: not measured: ${x.unavailable}`);
      else rows.push([`ccc supervisor-hook: ${name}`, f(x.medianMs, 1), times(ratio(x.medianMs, r.hook.floorMs)), x.runs.length]);
    }
    tables.push({ title: 'Hook latency (process start to decision, median)', ...table(['case', 'ms', '/ node -e 0', 'runs'], rows), notes });
  }
  if (r.review) {
    const v = r.review;
    const rows = [];
    const notes = [];
    if ('share' in v)
      rows.push([
        "review request shared with the agent's last request (one-answer session)",
        `${f(v.share * 100, 1)}% of ${f(v.reviewBytes / 1024, 0)} KiB`,
        '—',
        '—',
      ]);
    if ('longShare' in v)
      rows.push(['the same after the agent read three 48 KiB files', `${f(v.longShare * 100, 1)}% of ${f(v.longReviewBytes / 1024, 0)} KiB`, '—', '—']);
    if ('reviewerMs' in v) {
      rows.push(["standalone hook: stop received → reviewer's first request", f(v.reviewerMs, 0), times(v.ratio), v.runsMs.reviewer.length]);
      rows.push(['plain `claude -p` → its first request', f(v.plainMs, 0), '1.00×', v.runsMs.plain.length]);
    }
    if ('interactiveMs' in v) {
      rows.push([
        "interactive: claude starts its Stop hooks → reviewer's first request",
        f(v.interactiveMs, 0),
        times(v.interactiveRatio),
        v.interactiveRunsMs.interactive.length,
      ]);
      rows.push([
        'plain `claude -p` → its first request (between the interactive runs)',
        f(v.interactivePlainMs, 0),
        '1.00×',
        v.interactiveRunsMs.plain.length,
      ]);
    }
    if ('unavailable' in v) notes.push(`not measured: ${v.unavailable}`);
    if ('interactiveUnavailable' in v) notes.push(`interactive path not measured: ${v.interactiveUnavailable}`);
    notes.push(
      'Real claude against the scripted model server. Standalone hook: the stop enters through `ccc supervisor-hook` (node start, config, state lock, transcript, reviewer launch). Interactive: `ccc --supervisor` in a pty, a task typed per run, the stop timed by a second Stop hook (`date`). Alternating, medians; the first run of each warms up.',
    );
    tables.push({ title: 'Review (cache share, reviewer start-up)', ...table(['what', 'ms / share', '/ plain claude -p', 'runs'], rows), notes });
  }
  if (r.spend) tables.push(...spendTables(r.spend));
  if (r.transcript) tables.push(transcriptTable(r.transcript));
  if (r.frames) {
    const rows = [];
    const fr = r.frames;
    const add = (what, x) =>
      rows.push(
        x.timedOut ? [what, `did not finish in ${x.seconds} s`, '—', '—', '—'] : [what, f(x.framesPerS, 0), f(x.mbPerS, 1), f(x.seconds, 2), f(x.hwmMiB, 0)],
      );
    add(`ccc frames$, ${f(fr.files.bigMiB)} MiB`, fr.big.ccc);
    add(`bare split2 + JSON.parse, ${f(fr.files.bigMiB)} MiB`, fr.big.bare);
    add(`ccc frames$, ${f(fr.files.smallMiB)} MiB`, fr.small.ccc);
    add(`bare split2 + JSON.parse, ${f(fr.files.smallMiB)} MiB`, fr.small.bare);
    add(`ccc frames$, ${fr.files.hugeLineMB} MB line in ${f(fr.files.hugeFileMiB)} MiB`, fr.hugeLine.ccc);
    add(`bare split2 + JSON.parse, ${fr.files.hugeLineMB} MB line`, fr.hugeLine.bare);
    tables.push({
      title: `Frame parsing (frames/s ccc ÷ bare on ${f(fr.files.bigMiB)} MiB: ${times(ratio(fr.big.ccc.framesPerS, fr.big.bare.framesPerS))})`,
      ...table(['run', 'frames/s', 'MiB/s', 's', 'peak RSS MiB'], rows),
      notes: fr.hugeLine.ccc.warnings
        ? [`ccc skipped the ${fr.files.hugeLineMB} MB line (over its 16 MiB line cap) with ${fr.hugeLine.ccc.warnings} warning(s); bare parsed it.`]
        : [],
    });
  }
  if (r.churn) {
    const c = r.churn;
    if ('unavailable' in c) tables.push({ title: 'Observers connecting and dropping', ...table(['run'], []), notes: [`not measured: ${c.unavailable}`] });
    else {
      const ms = (us) => f(us / 1000, 2);
      tables.push({
        title: `Keystrokes while ${c.observers} observers connect and drop (ccc --supervisor --observe, about 1 MiB/s of output)`,
        ...table(
          ['observers', 'n', 'p50 ms', 'p99 ms', 'max ms'],
          [
            ['0', String(c.quietUs.n), ms(c.quietUs.p50), ms(c.quietUs.p99), ms(c.quietUs.max)],
            [`${c.observers} churning`, String(c.churningUs.n), ms(c.churningUs.p50), ms(c.churningUs.p99), ms(c.churningUs.max)],
          ],
        ),
        notes: [
          `RSS of all of ccc's processes before the churn: ${f(c.rssBeforeMiB)} MiB (${eachText(c.before?.each)}); echoes past 5 s: ${c.keystrokeTimeouts}.`,
          ...(c.perRound ?? []).map(
            (r) =>
              `round ${r.round}: at most ${f(r.rssMaxDuringMiB)} MiB during ${r.churnS} s of churn, ${f(r.rssAfterMiB)} MiB 3 s after (${eachText(r.rssAfterEach)}), ${f(r.settled.rssMiB)} MiB ${c.settleS} s after (${eachText(r.settled.each)})${trimText(r.settled.afterTrim)}; the log grew ${f(r.logBytesPer100s / 1024, 1)} KiB per 100 s; connections ${r.tally.connects}, ${r.tally.refused} refused (max_observers), ${r.tally.snapshots} got their snapshot.`,
          ),
        ],
      });
    }
  }
  if (r.memory) {
    const m = r.memory;
    const o = r.observers ?? { unavailable: 'not measured' };
    const rows = [];
    const notes = [];
    if ('unavailable' in m) notes.push(`not measured: ${m.unavailable}`);
    else rows.push([`ccc --supervisor, ${m.mb} MiB of output`, f(m.rssAtStartMiB, 0), f(m.rssMaxSampledMiB, 0), f(m.hwmMiB, 0), f(m.mbPerS, 1)]);
    const one = r.stuckObserver;
    if (one && !('unavailable' in one)) {
      rows.push([
        `ccc --supervisor --observe, one stuck observer, ${one.mb} MiB`,
        f(one.rssAtStartMiB, 0),
        f(one.rssMaxSampledMiB, 0),
        f(one.hwmMiB, 0),
        f(one.mbPerS, 1),
      ]);
      notes.push(`the stuck observer was ${one.stuckDropped ? 'dropped by the session' : 'NOT dropped'} (${one.stuckCloseReason || 'no reason'}).`);
    } else if (one) notes.push(`one stuck observer: not measured: ${one.unavailable}`);
    if ('unavailable' in o) notes.push(`${r.config.observers} observers, one stuck: not measured: ${o.unavailable}`);
    else {
      rows.push([
        `ccc --supervisor --observe, ${o.observers} observers (one stuck), ${o.mb} MiB`,
        f(o.rssAtStartMiB, 0),
        f(o.rssMaxSampledMiB, 0),
        f(o.hwmMiB, 0),
        f(o.mbPerS, 1),
      ]);
      notes.push(
        `stuck observer ${o.stuckDropped ? 'dropped by the session' : 'NOT dropped'}; healthy observers dropped: ${o.healthyDropped}; each healthy observer received ${f(o.healthyMinMiB, 0)}–${f(o.healthyMaxMiB, 0)} MiB (output as base64 JSON).`,
      );
      if (o.runsHwmMiB) notes.push(`${o.observers} observers: the worst of ${o.runsHwmMiB.length} runs (peaks ${o.runsHwmMiB.join(' / ')} MiB).`);
    }
    if (m.runsMbPerS && one?.runsMbPerS) {
      notes.push(
        `floods without and with the stuck observer alternated ${m.runsMbPerS.length} times (ABBA order); MiB/s is the median (runs: ${m.runsMbPerS.join(' / ')} without, ${one.runsMbPerS.join(' / ')} with), peak RSS the worst run.`,
      );
      if (one.pairRatios)
        notes.push(
          `with ÷ without, each repetition's two floods (back to back): ${one.pairRatios.join(' / ')}; median ${one.pairedRatio} (the target's figure).`,
        );
    }
    tables.push({
      title: 'Proxy memory (RSS of ccc and its relay, MiB)',
      ...table(['run', 'at start', 'max sampled (20 ms)', 'peak (VmHWM)', 'MiB/s'], rows),
      notes,
    });
  }
  return tables;
}

const STARTUP_LABELS = {
  direct: 'stand-in agent, direct pty',
  'node-spawn': 'one Node start, then the spawn',
  'node-front': 'a Node front and a Node child, then the spawn',
  claude: 'bare claude',
  'ccc-sup': 'ccc --supervisor',
  'ccc-sup-cmp': 'ccc --supervisor (compare build)',
  floor: 'node -e 0',
  version: 'ccc --version',
  help: 'ccc --help',
  config: 'ccc config --json',
  'config-ts': 'ccc config --json, with a ccc.config.ts',
};

/** Issue 16: each group's cases against its floor (the first case of the group). */
function startupTable(s) {
  const rows = [];
  const notes = [];
  const groups = [
    ['first byte of the stand-in agent', s.firstByte, 'direct'],
    ['the claude prompt (❯) on screen', s.prompt, 'claude'],
    ['wall time, start to exit', s.wall, 'floor'],
  ];
  for (const [what, cases, floorName] of groups) {
    const floor = cases[floorName]?.medianMs;
    for (const [name, x] of Object.entries(cases)) {
      const label = STARTUP_LABELS[name] ?? STARTUP_LABELS[name.replace(/-cmp$/, '')] + (name.endsWith('-cmp') ? ' (compare build)' : '');
      if ('unavailable' in x) notes.push(`${what}, ${label}: not measured: ${x.unavailable}`);
      else rows.push([what, label, f(x.medianMs, 1), times(ratio(x.medianMs, floor)), f(x.medianMs - floor, 1), x.runs.join(' / ')]);
    }
  }
  return {
    title: 'Start-up (ms from spawn, median; cases alternate run by run)',
    ...table(['until', 'case', 'ms', '/ floor', '− floor', 'runs'], rows),
    notes,
  };
}

function pad(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  return rows.map((row) =>
    row
      .map((cell, i) => String(cell).padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}

export function consoleReport(r) {
  const lines = [];
  for (const t of tablesOf(r)) {
    lines.push('', t.title, ...pad([t.header, ...t.rows]));
    for (const n of t.notes) lines.push(`  note: ${n}`);
  }
  lines.push('', 'Targets (issues 4 and 16)');
  lines.push(...pad([['status', 'target', 'value', 'limit'], ...r.targets.map((t) => [t.status, t.name, t.value ?? '—', t.target])]));
  for (const t of r.targets) if (t.detail) lines.push(`  ${t.name}: ${t.detail}`);
  return lines.join('\n');
}

const md = (cell) => String(cell).replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdownReport(r, jsonName) {
  const m = r.machine;
  const lines = [
    '# Benchmark results',
    '',
    `Run ${r.date} with \`npm run bench\` (raw figures: \`bench/results/${jsonName}\`).`,
    '',
    `- Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, ${m.platform}`,
    `- Node ${m.node}`,
    `- Load average at start / end: ${r.loadAverage.start.join(' ')} / ${r.loadAverage.end.join(' ')} (the machine is shared; every target is a ratio of figures from the same run, measured in alternation)`,
    `- Scale: ${Object.entries(r.config)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
    '',
    '## How to read this',
    '',
    '- The harness is the pty master (the terminal) for every variant: (a) the stand-in agent in a direct pty, the physical limit;',
    '  (b) under `script -qfc`, the classic C proxy; (c) under `ccc --supervisor` (stand-in as the agent via `CCC_CLAUDE`), whose',
    "  bytes go through the native relay `ccc-relay` (native/relay.c); (n) the same with `CCC_RELAY=off`: ccc's Node proxy on",
    '  node-pty, the fallback where the relay cannot be built and the byte path before the relay; (d) plain `ccc`, which hands the',
    '  terminal to the agent and proxies nothing; (r) a 15-line Node proxy on node-pty (`bench/fixtures/bare-proxy.mjs`), the',
    '  floor for any proxy built on Node and node-pty.',
    '- The stand-ins are shell scripts (`bench/fixtures/`): `stty raw` + `cat` echoes keystrokes; `yes | head -c` floods.',
    '- "proxy CPU" is user + system CPU of the processes between the harness and the stand-in (script; all of ccc\'s: the',
    '  launcher, its session, the relay, the screen worker while it runs, and what ended ones used), from /proc, the process tree',
    '  walked anew at every reading; "proxy RSS" likewise sums ccc\'s processes alive at the reading.',
    '- Hook cases: `proxy` is the hook ccc injects into every supervised claude (the stop goes over the private channel to',
    '  the running ccc, here a channel in the harness that allows at once); `rule` and `reviewer` decide on their own',
    '  (`ccc hook install`) with a trivial rule checker, or the claude checker with a stand-in reviewer that answers at once.',
    '- The 50 observers run in a separate process on the same machine; they receive every byte as base64 JSON.',
    '- Start-up: every case is timed from its spawn by the harness. The first-byte stand-in (`bench/fixtures/first-byte-agent.sh`)',
    '  prints as soon as it runs; the claude prompt is the real claude (scripted model server, private HOME with onboarding done)',
    '  until `❯` is on the screen of a headless terminal emulator; `--version` gets a stand-in claude that prints a version.',
    '',
    '## Targets',
    '',
    '| status | target | value | limit |',
    '|---|---|---|---|',
    ...r.targets.map((t) => `| ${t.status} | ${md(t.name)} | ${t.value ?? '—'} | ${md(t.target)} |`),
    '',
  ];
  const details = r.targets.filter((t) => t.detail);
  if (details.length) lines.push(...details.map((t) => `- ${md(t.name)}: ${md(t.detail)}`), '');
  for (const t of tablesOf(r)) {
    lines.push(`## ${t.title}`, '', `| ${t.header.map(md).join(' | ')} |`, `|${t.header.map(() => '---').join('|')}|`);
    lines.push(...t.rows.map((row) => `| ${row.map(md).join(' | ')} |`), '');
    if (t.notes.length) lines.push(...t.notes.map((n) => `- ${md(n)}`), '');
  }
  if (r.compareCli) r.notes.push(`(c') and the "compare build" cases are ccc of another build: ${r.compareCli}`);
  if (r.notes.length) lines.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

/** What a user pays: per review of a short and a long session, and a wait on the model's limit. */
function spendTables(s) {
  if ('unavailable' in s) return [{ title: 'What a user pays', ...table(['what', 'value'], []), notes: [`not measured: ${s.unavailable}`] }];
  const rows = [];
  for (const [name, session] of [
    ['short', s.short],
    ['long', s.long],
  ]) {
    session.reviews.forEach((v, i) =>
      rows.push([
        `${name} session, review ${i + 1} (${v.completed ? 'complete' : 'sent back'}, ${v.kind ?? '?'})`,
        v.requests,
        v.inputTokens,
        v.cacheReadTokens,
        v.cacheWriteTokens,
        v.outputTokens,
        `${f(v.cacheReadShare * 100, 1)}%`,
        `$${f(v.costUsd, 4)}`,
      ]),
    );
  }
  const w = s.wait;
  const waitRows = [
    ['requests reaching the server while waiting (must be 0)', w.requestsWhileWaiting],
    ['waits, scheduled (ms)', w.waits.map((x) => x.ms).join(' + ')],
    ['first refused request → the resumed one (ms: the waits and two claude starts)', f(w.refusedToResumeMs, 0)],
    ['the run, wall time (ms)', f(w.wallMs, 0)],
    ["the agent's requests (2 refused, 1 through)", w.agentRequests],
  ];
  const text = (rs) => rs.map((row) => row.map(String));
  return [
    {
      title: 'What a user pays per review',
      ...table(['review', 'requests', 'input', 'cache read', 'cache write', 'output', 'cache-read share', "claude's cost"], text(rows)),
      notes: [
        "Real claude against the scripted model server, headless `ccc --supervisor -p --json`. Tokens as a simulated prompt cache counts them: a request's longest prefix shared with any earlier request is read, the rest written (4 characters a token); the cost is claude's own (the verdict's usage). Short: the agent answers at once, the reviewer runs `npm test`. Long: the agent reads three 48 KiB files, the first review sends it back, it reads a fourth, the second review runs `npm test`.",
      ],
    },
    {
      title: "What a wait on the model's limit costs",
      ...table(['what', 'value'], text(waitRows)),
      notes: [
        "The agent's first two requests refused 429 (retry-after an hour); ccc's schedule `CCC_SUPERVISOR_LIMIT_RETRY_SECONDS=1` (1 s, then 2 s). Requests counted from each `waiting` event to the time it names.",
      ],
    },
  ];
}

/** What each Node process of ccc kept once glibc gave its free memory back (BENCH_CHURN_TRIM=1). */
function trimText(afterTrim) {
  return afterTrim?.length ? `, after malloc_trim ${afterTrim.map((p) => `${p.name} ${p.rssAfterMiB}${p.failed ? ' (trim failed)' : ''}`).join(' + ')}` : '';
}

/** Each process's RSS of a reading, named: `ccc 44 + ccc session 72 + ccc-relay 4`. */
function eachText(each) {
  return (each ?? []).map((p) => `${p.name} ${p.rssMiB}`).join(' + ');
}

/** The transcript-size series: what ccc adds to a stop, size by size. */
function transcriptTable(t) {
  if ('unavailable' in t) return { title: 'Transcript size (stop → reviewer)', ...table(['size'], []), notes: [`not measured: ${t.unavailable}`] };
  const compare = Object.values(t.sizes).some((s) => 'compareMs' in s);
  const reviewerArgs = Object.values(t.sizes).some((s) => 'reviewerArgsMs' in s);
  const range = (list) => (list?.length ? `${f(Math.min(...list))} – ${f(Math.max(...list))}` : '—');
  // Each run's own difference: the ccc and plain cases of a run ran back to back.
  const addedEach = (s) => (s.runsMs ? s.runsMs.ccc.map((ms, i) => ms - s.runsMs.plain[i]) : undefined);
  const rows = Object.entries(t.sizes).map(([mb, s]) => [
    `${mb} MiB`,
    f(s.plainMs),
    ...(reviewerArgs ? [f(s.reviewerArgsMs)] : []),
    f(s.cccMs),
    f(s.addedMs),
    range(addedEach(s)),
    f(s.ownMs),
    range(s.ownRunsMs?.ccc),
    ...(compare ? [f(s.compareAddedMs), f(s.compareOwnMs)] : []),
  ]);
  return {
    title: `Transcript size: a stop of a long session (ms, medians of ${t.runs})`,
    ...table(
      [
        'transcript',
        'plain claude --resume --fork-session',
        ...(reviewerArgs ? ["plain, the reviewer's arguments"] : []),
        'ccc hook → first request',
        'ccc added',
        'added, each run',
        "ccc's own part",
        'own part, each run',
        ...(compare ? ['added (compare build)', 'own part (compare build)'] : []),
      ],
      rows,
    ),
    notes: [
      `Real claude against the scripted model server; a real session grown to each size by history before it; each stop after a new assistant line, the session's first stop not measured. ccc added = hook → reviewer's first request − plain fork → its first request; ccc's own part = hook spawned → reviewer spawned. "each run": the lowest and highest of the runs. Spread of the medians across sizes: added ${f(t.addedSpreadMs)} ms, own part ${f(t.ownSpreadMs)} ms.`,
      ...(t.reading && Object.keys(t.reading).length
        ? [
            `The stop's reading alone, in one process (ms, median): ${Object.entries(t.reading)
              .map(
                ([mb, r]) =>
                  `${mb} MiB ${f(r.stopMs, 1)} after one new line (runs ${r.stopsMs.map((ms) => f(ms, 1)).join(' / ')}), ${f(r.wholeReadMs)} for the whole file`,
              )
              .join('; ')}.`,
          ]
        : []),
    ],
  };
}

/**
 * RESULTS.md's part kept by hand: measurements that code comments cite by heading. A new run's
 * report replaces everything before it and keeps it as it was.
 */
const KEPT_HEADING = '# Measurements kept by hand';

/** `report` followed by the part of `previous` (the RESULTS.md it replaces) from KEPT_HEADING on. */
export function withKeptPart(report, previous) {
  const at = previous.search(new RegExp(`^${KEPT_HEADING}$`, 'm'));
  return at < 0 ? report : `${report.trimEnd()}\n\n${previous.slice(at)}`;
}
