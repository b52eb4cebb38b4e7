/**
 * The agent on the Node proxy: the job shell's foreground job, so its pid is the pty's foreground
 * process group once it writes (the shell's own pid until then). Signals go to the agent, not to
 * the shell that waits for it.
 */
import type { AgentPty } from './agent-pty.js';
import { readProcessState } from './process-state.js';

export class ProxyAgent {
  readonly pid: Promise<number>;
  readonly #pty: AgentPty;
  #agentPid: number | undefined;
  #resolvePid!: (pid: number) => void;

  constructor(pty: AgentPty) {
    this.#pty = pty;
    this.pid = new Promise<number>((resolve) => (this.#resolvePid = resolve));
  }

  /** The agent wrote: it runs, and its pid can be known. */
  wrote(): void {
    if (!this.#agentPid) this.#resolvePid(this.#find() ?? this.#pty.pid);
  }

  /** The agent exited: `pid` settles with what is known. */
  exited(): void {
    this.#resolvePid(this.#agentPid ?? this.#pty.pid);
  }

  kill(signal: NodeJS.Signals): void {
    const agent = this.#find();
    if (agent === undefined) this.#pty.kill(signal);
    else {
      try {
        process.kill(agent, signal);
      } catch {
        // already gone
      }
    }
  }

  #find(): number | undefined {
    const foreground = this.#agentPid ?? readProcessState(this.#pty.pid)?.tpgid;
    if (foreground && foreground > 0 && foreground !== this.#pty.pid) this.#agentPid = foreground;
    return this.#agentPid;
  }
}
