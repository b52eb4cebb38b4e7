/**
 * The small page where the human answers the agent's questions. Self-contained (no CDN, inline
 * script), it polls the open questions every second and posts answers with the token from its own
 * URL. Question text is inserted as text, never as HTML.
 */
export function feedbackPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ccc: questions from the agent</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
  .question { border: 1px solid #ccc; border-radius: 6px; padding: 1rem; margin: 1rem 0; }
  .text { white-space: pre-wrap; margin: 0 0 .5rem; }
  textarea { width: 100%; min-height: 5rem; box-sizing: border-box; font: inherit; }
  .meta { color: #777; font-size: 13px; }
  #empty { color: #777; }
</style>
</head>
<body>
<h1>Questions from the agent</h1>
<p id="empty">No question is waiting. This page updates by itself.</p>
<div id="questions"></div>
<script>
const token = new URLSearchParams(location.search).get('token') || '';
const shown = new Map();
async function refresh() {
  let questions = [];
  try {
    const res = await fetch('/api/questions?token=' + encodeURIComponent(token));
    if (!res.ok) throw new Error((await res.json()).error);
    questions = (await res.json()).questions;
  } catch (e) {
    document.getElementById('empty').textContent = 'Cannot reach ccc mcp: ' + e.message;
    return;
  }
  const open = new Set(questions.map((q) => q.id));
  for (const [id, el] of shown) if (!open.has(id)) { el.remove(); shown.delete(id); }
  for (const q of questions) if (!shown.has(q.id)) shown.set(q.id, render(q));
  document.getElementById('empty').textContent = shown.size ? '' : 'No question is waiting. This page updates by itself.';
}
function render(q) {
  const box = document.createElement('form');
  box.className = 'question';
  box.dataset.id = q.id;
  const text = document.createElement('p');
  text.className = 'text';
  text.textContent = q.question;
  const meta = document.createElement('p');
  meta.className = 'meta';
  meta.textContent = 'asked at ' + new Date(q.askedAt).toLocaleTimeString();
  const answer = document.createElement('textarea');
  answer.name = 'answer';
  answer.required = true;
  const button = document.createElement('button');
  button.textContent = 'Send answer';
  box.append(text, meta, answer, button);
  box.addEventListener('submit', async (event) => {
    event.preventDefault();
    const res = await fetch('/api/answer?token=' + encodeURIComponent(token), {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: q.id, answer: answer.value }),
    });
    meta.textContent = res.ok ? 'Sent.' : 'Not sent: ' + (await res.json()).error;
    if (res.ok) { box.remove(); shown.delete(q.id); }
  });
  document.getElementById('questions').append(box);
  return box;
}
refresh();
setInterval(refresh, 1000);
</script>
</body>
</html>
`;
}
