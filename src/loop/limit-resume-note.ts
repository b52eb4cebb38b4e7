/**
 * The agent's next message after a turn the model refused on a limit, once the wait is over (its
 * own message is already in the session). A leaf: the transcript's reader knows it too, so that
 * ccc's note is not taken for a new task the user typed (the iteration count goes on).
 */
export const LIMIT_RESUME_NOTE =
  'Your previous turn was interrupted: the model API refused it on a rate limit, which has passed now. Continue the task where you left off.';
