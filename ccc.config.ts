/**
 * Example project configuration for ccc (also used when you run ccc in this repository).
 * Every key is optional; these are the defaults. See README.md, "Configuration".
 */
import { defineConfig } from 'ccc-supervisor';

export default defineConfig({
  supervisor: {
    // Reviews per task before ccc hands control back to you.
    max_iterations: 20,
    // Seconds one checker may take (the reviewer runs tests, give it time).
    timeout_seconds: 600,
    log_level: 'info',
    // The reviewer: a forked Claude session that sees the whole conversation.
    checkers: ['claude'],
  },
});
