/**
 * The observers of the memory benchmark, in their own process so their work does not count as the
 * proxy's: `node bench/observers-worker.mjs <url> <count>` connects `count` WebSocket observers;
 * the first stops reading once it has its snapshot (stuck), the others read and discard. Prints
 * one JSON line when all are connected, and on stdin's end one line with what each received and
 * how each connection ended.
 */
import WebSocket from 'ws';

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const wsUrl = url.replace(/^http/, 'ws');

function connect(stuck) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
    const o = { stuck, ws, bytes: 0, messages: 0, closeCode: null, closeReason: '' };
    ws.on('error', () => {});
    ws.on('close', (code, reason) => {
      o.closeCode = code;
      o.closeReason = reason.toString().slice(0, 120);
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`observer connect: HTTP ${res.statusCode}`)));
    ws.on('message', (data) => {
      o.bytes += data.length;
      o.messages += 1;
      // hello first, then the snapshot: from then on the stuck observer reads nothing at all.
      if (o.messages === 2) {
        if (stuck) ws._socket.pause();
        resolve(o);
      }
    });
  });
}

const observers = [];
for (let i = 0; i < count; i++) observers.push(await connect(i === 0));
process.stdout.write(JSON.stringify({ connected: observers.length }) + '\n');
process.stdin.resume();
process.stdin.on('end', async () => {
  // A paused socket cannot see its close: let the stuck observer read again and see whether the
  // session had already dropped it (then the close arrives right after what was queued).
  const stuck = observers[0];
  stuck.ws._socket.resume();
  for (let i = 0; i < 30 && stuck.closeCode === null; i++) await new Promise((r) => setTimeout(r, 100));
  const healthy = observers.filter((o) => !o.stuck);
  process.stdout.write(
    JSON.stringify({
      stuck: { bytes: stuck.bytes, closeCode: stuck.closeCode, closeReason: stuck.closeReason },
      healthyMinMiB: Math.min(...healthy.map((o) => o.bytes)) / 2 ** 20,
      healthyMaxMiB: Math.max(...healthy.map((o) => o.bytes)) / 2 ** 20,
      healthyDropped: healthy.filter((o) => o.closeCode !== null).length,
    }) + '\n',
  );
  process.exit(0);
});
