/**
 * The churning observers of the observer-churn benchmark, in their own process: `node
 * bench/observer-churn-worker.mjs <url> <count>` keeps `count` observers connecting and dropping
 * until stdin ends: half close as soon as `hello` arrives (before their snapshot), half once the
 * snapshot came; one refused (too many observers) tries again at once. Prints one JSON line at the
 * end: how many connected, got their snapshot, and were refused.
 */
import WebSocket from 'ws';

const [url, countText] = process.argv.slice(2);
const wsUrl = url.replace(/^http/, 'ws');
const tally = { connects: 0, hellos: 0, snapshots: 0, refused: 0, errors: 0 };
let running = true;

function churn(quick) {
  if (!running) return;
  tally.connects++;
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
  let messages = 0;
  ws.on('error', () => tally.errors++);
  ws.on('message', () => {
    messages++;
    if (messages === 1) tally.hellos++;
    if (messages === 2) tally.snapshots++;
    if (messages === (quick ? 1 : 2)) ws.terminate();
  });
  ws.on('close', (code) => {
    if (code === 1013) tally.refused++;
    setImmediate(() => churn(quick));
  });
}

for (let i = 0; i < Number(countText); i++) churn(i % 2 === 0);
process.stdin.resume();
process.stdin.on('end', () => {
  running = false;
  process.stdout.write(JSON.stringify(tally) + '\n');
  process.exit(0);
});
