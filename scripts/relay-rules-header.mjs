/**
 * Renders native/byte-path-rules.h from src/pty/byte-path-rules.ts: the relay's copy of the byte
 * path's rules is generated, never written by hand. `npm run gen:relay-rules` writes it (from the
 * built dist/); test/pty/byte-path-rules.test.ts checks that the committed header is current.
 */

/** A C string literal; bytes outside printable ASCII (and `"`, `\`) as three-digit octal escapes. */
function cString(text) {
  let out = '';
  for (const byte of Buffer.from(text, 'latin1')) {
    out += byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `"${out}"`;
}

const hex = (byte) => `0x${byte.toString(16).padStart(2, '0')}`;

/** The state table as C rows, 32 entries a line. */
function table(next, states) {
  const rows = [];
  for (let state = 0; state < states; state++) {
    const lines = [];
    for (let at = 0; at < 256; at += 32) lines.push(`    ${Array.from(next.subarray(state * 256 + at, state * 256 + at + 32)).join(', ')}`);
    rows.push(`  {\n${lines.join(',\n')}\n  }`);
  }
  return rows.join(',\n');
}

/** @param {typeof import('../src/pty/byte-path-rules.ts')} rules */
export function relayRulesHeader(rules) {
  return `/* Generated from src/pty/byte-path-rules.ts by \`npm run gen:relay-rules\`: do not edit. */
#ifndef CCC_BYTE_PATH_RULES_H
#define CCC_BYTE_PATH_RULES_H

#define RULE_ESC ${hex(rules.ESC)}
#define RULE_BEL ${hex(rules.BEL)}
#define RULE_CAN ${hex(rules.CAN)}
#define RULE_SUB ${hex(rules.SUB)}
#define RULE_CSI_INTRODUCER ${hex(rules.CSI_INTRODUCER)}
#define RULE_CSI_FINAL_MIN ${hex(rules.CSI_FINAL_MIN)}
#define RULE_CSI_FINAL_MAX ${hex(rules.CSI_FINAL_MAX)}
static const unsigned char RULE_STRING_INTRODUCERS[] = {${rules.STRING_INTRODUCERS.map(hex).join(', ')}};
#define RULE_STRING_TERMINATOR_FINAL ${hex(rules.STRING_TERMINATOR_FINAL)}

/* Where a sequence is open: next state = RULE_VT_NEXT[state][byte]; ccc's bytes go only at RULE_VT_GROUND. */
#define RULE_VT_GROUND ${rules.VT_GROUND}
#define RULE_VT_ESCAPE ${rules.VT_ESCAPE}
#define RULE_VT_STATES ${rules.VT_STATES}
static const unsigned char RULE_VT_NEXT[RULE_VT_STATES][256] = {
${table(rules.VT_NEXT, rules.VT_STATES)}
};

static const char RULE_ALT_SCREEN_PREFIX[] = ${cString(rules.ALT_SCREEN_PREFIX)};
#define RULE_ALT_SCREEN_ENTER ${hex(rules.ALT_SCREEN_ENTER)}
#define RULE_ALT_SCREEN_LEAVE ${hex(rules.ALT_SCREEN_LEAVE)}
static const char RULE_ALT_SCREEN_EXIT[] = ${cString(rules.ALT_SCREEN_EXIT)};
static const char RULE_ALT_SCREEN_REENTER[] = ${cString(rules.ALT_SCREEN_REENTER)};
static const char RULE_MODE_RESETS[] = ${cString(rules.MODE_RESETS)};

/* Defaults only: ccc passes its timing as arguments (--inject-idle-ms, --drain-quiet-ms, --drain-max-ms, --redraw-nudge-ms). */
#define RULE_INJECT_IDLE_MS ${rules.TIMING.injectIdleMs}
#define RULE_DRAIN_QUIET_MS ${rules.TIMING.drainQuietMs}
#define RULE_DRAIN_MAX_MS ${rules.TIMING.drainMaxMs}
#define RULE_REDRAW_NUDGE_MS ${rules.TIMING.redrawNudgeMs}

#endif
`;
}
