// Asking the learner before doing something they may regret (overwriting their file, seeing the
// answer). In a terminal we ask y/N; elsewhere nobody can answer, so the caller must have said --yes.
import { createInterface } from 'node:readline';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { UsageError, type IO } from './cli.ts';

/** Where an answer comes from: tests pass their own instead of reading standard input. */
export interface Asker {
  ask?: (prompt: string) => Promise<string>;
}

/** Asks a y/N question; only "y" or "yes" (any case) is a yes, and anything else is a no. */
export async function confirm(question: string, io: IO & Asker): Promise<boolean> {
  const suffix = '[y/N] ';
  // Room is left on the last line for the answer.
  const prompt = `${wrap(question, WIDTH - suffix.length - 4)} ${io.style.dim(suffix)}`;
  const answer = await (io.ask ?? readOneLine)(prompt);
  return /^y(es)?$/i.test(answer.trim());
}

/**
 * Whether the caller must ask before going on: false when --yes was given, true in a terminal.
 * Without a terminal and without --yes nobody can answer, so it refuses with a UsageError that
 * tells the learner how to say yes (`action` completes "pass --yes to …").
 */
export function needsConfirmation(yes: boolean, io: IO, action: string): boolean {
  if (yes) return false;
  if (io.interactive) return true;
  // npm takes options before `--` as its own, so say where --yes goes.
  throw new UsageError(
    `no terminal to confirm in: pass --yes to ${action} (after -- with npm run).`,
  );
}

/** `needsConfirmation` and `confirm` together: true when the learner agreed (or passed --yes). */
export async function agreed(
  question: string,
  yes: boolean,
  io: IO & Asker,
  action: string,
): Promise<boolean> {
  return !needsConfirmation(yes, io, action) || confirm(question, io);
}

function readOneLine(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    let answered = false;
    rl.question(prompt, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    // Ctrl-D or Ctrl-C: no answer, which is a no.
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      if (!answered) resolve('');
    });
  });
}
