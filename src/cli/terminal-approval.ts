import { createInterface } from 'node:readline/promises';
import type { ApprovalDecision, ApprovalHandler } from '../pipeline/tool-call-hooks.js';

const KEYS: Record<string, ApprovalDecision> = { o: 'allow-once', a: 'allow-always', d: 'deny' };

/**
 * Approvals for a command run by a person: a prompt on the terminal (stderr) answered on stdin,
 * `o`nce, `a`lways or `d`eny. Without a terminal on both (a pipe, CI, a script) nobody can
 * answer and the handler is `undefined`: approvals are then denied.
 */
export function terminalApproval(): ApprovalHandler | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return async (request, { signal }) => {
    const offered = request.allowedDecisions;
    const choices = Object.entries(KEYS)
      .filter(([, decision]) => offered.includes(decision))
      .map(([key, decision]) => `${key}=${decision}`)
      .join(', ');
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      process.stderr.write(
        `\n${request.severity === 'critical' ? '!! ' : ''}${request.title} (asked by ${request.pluginId})\n${request.description}\n`,
      );
      const answer = await prompt.question(`Allow ${request.toolName}? [${choices}] `, { signal });
      return KEYS[answer.trim().toLowerCase().charAt(0)];
    } finally {
      prompt.close();
    }
  };
}
