import { createInterface } from 'node:readline/promises';
import type { InputSlot } from '../../catalog/server-inputs.js';

/** Whether a person can answer on this terminal (stdin and stderr both a TTY). */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/**
 * Asks for one input on the terminal (stderr, read from stdin). A secret is typed without echo.
 * An empty answer takes the default; `undefined` when there is none.
 */
export async function askInput(slot: InputSlot): Promise<string | undefined> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const about = [slot.description, slot.choices ? `one of ${slot.choices.join(', ')}` : undefined]
    .filter(Boolean)
    .join('; ');
  const label = `${slot.key}${about ? ` (${about})` : ''}${slot.default !== undefined ? ` [${slot.default}]` : ''}${slot.secret ? ' (secret, not shown)' : ''}: `;
  try {
    if (slot.secret) {
      process.stderr.write(label);
      // Nothing typed is echoed: the readline writes its line editing to an output that drops it.
      (prompt as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => undefined;
    }
    const answer = (await prompt.question(slot.secret ? '' : label)).trim();
    if (slot.secret) process.stderr.write('\n');
    return answer === '' ? slot.default : answer;
  } finally {
    prompt.close();
  }
}

/** Asks a yes/no question; an empty answer is yes. */
export async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await prompt.question(`${question} [Y/n] `)).trim().toLowerCase();
    return answer === '' || answer === 'y' || answer === 'yes';
  } finally {
    prompt.close();
  }
}
