// `kata <problem> --watch` started in a copy of the repository, for the benches that time what a
// learner waits for after a save: its output is read as it comes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface WatchedKata {
  child: ChildProcessWithoutNullStreams;
  /** Resolves once what kata prints from now on matches `pattern`. */
  until(pattern: RegExp): Promise<void>;
}

export function watchKata(copy: string, id: string): WatchedKata {
  const child = spawn(process.execPath, ['scripts/launch.mjs', 'kata', id, '--watch'], {
    cwd: copy,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  let waiting: { pattern: RegExp; from: number; resolve: () => void } | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (waiting && waiting.pattern.test(output.slice(waiting.from))) waiting.resolve();
  });
  const until = (pattern: RegExp): Promise<void> =>
    new Promise((resolve) => {
      waiting = { pattern, from: output.length, resolve };
    });
  return { child, until };
}
