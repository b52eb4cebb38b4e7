import { parse, type ParseEntry } from 'shell-quote';

/** The simple commands of a line of shell, split on `&&`, `||`, `;`, `|`, `&` and parentheses; redirections dropped. */
export function shellSegments(text: string): string[][] {
  let entries: ParseEntry[];
  try {
    entries = parse(text, (name) => `$${name}`);
  } catch {
    return [];
  }
  const segments: string[][] = [[]];
  let skipNext = false;
  for (const entry of entries) {
    const current = segments[segments.length - 1]!;
    if (typeof entry === 'string') {
      if (skipNext) skipNext = false;
      else current.push(entry);
      continue;
    }
    if ('comment' in entry) break;
    if (entry.op === 'glob') {
      current.push(entry.pattern);
      continue;
    }
    if (['>', '>>', '<', '>&', '<&', '&>', '>|'].includes(entry.op)) {
      if (/^\d+$/.test(current[current.length - 1] ?? '')) current.pop();
      skipNext = true;
      continue;
    }
    segments.push([]);
  }
  return segments.filter((s) => s.length > 0);
}
