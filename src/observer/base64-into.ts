/**
 * Base64 (RFC 4648, with padding) written straight into a buffer. Node can only encode to a string,
 * which during a flood to observers is megabytes of young-generation garbage a second, collected
 * in bursts; this writes the characters where the message needs them and allocates nothing.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CHARS = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** Two characters for every 12 bits: half the table lookups of one per 6 bits. */
const PAIRS = new Uint16Array(4096);
for (let i = 0; i < 4096; i++) PAIRS[i] = (CHARS[i >> 6]! << 8) | CHARS[i & 63]!;
const PAD = 0x3d;

export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** Writes the base64 of `source` into `target` from `at`; returns where it ended. */
export function base64Into(source: Uint8Array, target: Uint8Array, at: number): number {
  const whole = source.length - (source.length % 3);
  let out = at;
  for (let i = 0; i < whole; i += 3) {
    const bits = (source[i]! << 16) | (source[i + 1]! << 8) | source[i + 2]!;
    const high = PAIRS[bits >>> 12]!;
    const low = PAIRS[bits & 4095]!;
    target[out] = high >> 8;
    target[out + 1] = high & 255;
    target[out + 2] = low >> 8;
    target[out + 3] = low & 255;
    out += 4;
  }
  const rest = source.length - whole;
  if (rest > 0) {
    const bits = (source[whole]! << 16) | (rest === 2 ? source[whole + 1]! << 8 : 0);
    target[out] = CHARS[bits >>> 18]!;
    target[out + 1] = CHARS[(bits >>> 12) & 63]!;
    target[out + 2] = rest === 2 ? CHARS[(bits >>> 6) & 63]! : PAD;
    target[out + 3] = PAD;
    out += 4;
  }
  return out;
}
