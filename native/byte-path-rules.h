/* Generated from src/pty/byte-path-rules.ts by `npm run gen:relay-rules`: do not edit. */
#ifndef CCC_BYTE_PATH_RULES_H
#define CCC_BYTE_PATH_RULES_H

#define RULE_ESC 0x1b
#define RULE_BEL 0x07
#define RULE_CAN 0x18
#define RULE_SUB 0x1a
#define RULE_CSI_INTRODUCER 0x5b
#define RULE_CSI_FINAL_MIN 0x40
#define RULE_CSI_FINAL_MAX 0x7e
static const unsigned char RULE_STRING_INTRODUCERS[] = {0x5d, 0x50, 0x58, 0x5e, 0x5f};
#define RULE_STRING_TERMINATOR_FINAL 0x5c
#define RULE_ESCAPE_LOOKBACK 256

static const char RULE_ALT_SCREEN_PREFIX[] = "\033[?1049";
#define RULE_ALT_SCREEN_ENTER 0x68
#define RULE_ALT_SCREEN_LEAVE 0x6c
static const char RULE_ALT_SCREEN_EXIT[] = "\033[?1049l";
static const char RULE_MODE_RESETS[] = "\033[?2004l\033[?1004l\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?1015l\033[?25h";

/* Defaults only: ccc passes its timing as arguments (--inject-idle-ms, --drain-quiet-ms, --drain-max-ms). */
#define RULE_INJECT_IDLE_MS 100
#define RULE_DRAIN_QUIET_MS 50
#define RULE_DRAIN_MAX_MS 1000

#endif
