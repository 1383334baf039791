// `npm run kata [problem] [--once] [--reveal] [--open]`: shows a problem, judges the stub, and in a
// terminal re-judges on every save until `q` or Ctrl-C (`h` shows the next hint). Without a terminal
// (or with --once) it judges once and exits 0 only if the solution is accepted. --open starts the
// learner's editor on the stub.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { watch } from 'chokidar';
import { judge, releaseSlot, type SessionSlot } from '../../harness/judge/judge.ts';
import { renderMarkdown } from '../../harness/terminal/markdown.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import {
  isSolved,
  loadProgress,
  recordReport,
  updateProgress,
} from '../../harness/learner/progress.ts';
import { readRegularFile, shownPath, sizeText, StateError } from '../../harness/learner/state.ts';
import { formatReport, VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { errorLine, parse, resolveProblem, type IO } from '../lib/cli.ts';
import { readMaterial, showNextHint } from './hint.ts';

/** A statement is a page or two; anything far larger is not one. */
const MAX_STATEMENT_BYTES = 1024 * 1024;

/** Saves closer together than this are judged once. */
const DEBOUNCE_MS = 40;

/**
 * Judges the stub, records the report and shows it. Progress that cannot be saved does not hide the
 * verdict: the report is shown all the same, and the reason comes back as `unsaved`.
 */
async function judgeAndShow(
  problem: Problem,
  reveal: boolean,
  io: IO,
  slot?: SessionSlot,
): Promise<{ accepted: boolean; unsaved?: StateError }> {
  const report = await judge({
    slot,
    problem,
    solutionFile: problem.stubFile,
    // The verdict is known once the example and core cases are in: say it before the follow-ups run.
    onDecided: (verdict) =>
      io.out(`${VERDICT_LABEL[verdict]} ${io.style.dim('· checking the follow-ups…')}`),
  });
  let unsaved: StateError | undefined;
  try {
    updateProgress(io.err, (progress) => recordReport(progress, report));
  } catch (error) {
    if (!(error instanceof StateError)) throw error;
    unsaved = error;
  }
  io.out(formatReport(problem, report, { reveal, style: io.style }));
  return { accepted: report.verdict === 'accepted', unsaved };
}

/** The statement, read only if it is a regular file of a sane size: one clear line otherwise. */
function readStatement(problem: Problem): string {
  return readMaterial(problem, 'statement', () => {
    const read = readRegularFile(problem.statementFile, MAX_STATEMENT_BYTES);
    if (read.kind === 'text') return read.text;
    const shown = shownPath(problem.statementFile);
    if (read.kind === 'missing') throw new Error(`${shown} is missing`);
    if (read.kind === 'too-big') throw new Error(`${shown} is ${sizeText(read.bytes)}`);
    throw new Error(`${shown} is ${read.what}, not a regular file`);
  });
}

function pickNext(problems: Problem[], io: IO): Problem | undefined {
  const progress = loadProgress(io.err);
  return problems.find((p) => !isSolved(progress, p.dir));
}

/** Editors that draw in the terminal: started detached, without one, they could not show anything. */
const TERMINAL_EDITORS = new Set([
  'vi',
  'vim',
  'nvim',
  'nano',
  'pico',
  'micro',
  'hx',
  'kak',
  'joe',
]);

/**
 * Starts $VISUAL, else $EDITOR, on the file, detached: a window editor opens beside the terminal and
 * the judge carries on watching. The variable may hold arguments ("code --reuse-window").
 */
export function openInEditor(file: string, io: IO, env: NodeJS.ProcessEnv = process.env): void {
  const [program, ...args] = (env.VISUAL?.trim() || env.EDITOR?.trim() || '').split(/\s+/);
  const shown = path.relative(process.cwd(), file);
  const note = (text: string): void =>
    io.out(wrap(text, WIDTH, '  ').split('\n').map(io.style.dim).join('\n'));
  if (!program) {
    note('--open: set $VISUAL or $EDITOR to your editor (e.g. export VISUAL=code).');
    return;
  }
  // npm run sets EDITOR=vi when the learner set neither, so vi is what most of them get here.
  if (TERMINAL_EDITORS.has(path.basename(program))) {
    note(
      `--open: ${program} runs inside a terminal, so the judge cannot start it beside itself: ` +
        `open ${shown} from another terminal, or set $VISUAL to a window editor (e.g. code).`,
    );
    return;
  }
  const child = spawn(program, [...args, file], { detached: true, stdio: 'ignore' });
  // A missing program is only known later, as an event: report it rather than crash the judge.
  child.on('error', (error) =>
    io.err(`warning: could not start the editor "${program}": ${error.message}`),
  );
  child.unref();
  note(`Opening ${shown} with ${program}`);
}

export interface KataOptions {
  /** Resolves when the learner asks to quit (tests pass their own). */
  untilQuit?: Promise<void>;
}

export async function kata(argv: string[], io: IO, options: KataOptions = {}): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'kata',
    args: '[problem]',
    maxArgs: 1,
    summary: 'Shows a problem, judges your stub, and judges it again on every save.',
    options: {
      once: {
        type: 'boolean',
        default: false,
        help: 'judge once and exit: 0 if accepted, 1 if not',
      },
      // Watching without a terminal, for scripts (the bench): not offered to the learner.
      watch: { type: 'boolean', default: false, hidden: true, help: 'watch without a terminal' },
      reveal: {
        type: 'boolean',
        default: false,
        help: 'also show the input and output of failing hidden cases',
      },
      open: { type: 'boolean', default: false, help: 'also open the stub in $VISUAL or $EDITOR' },
    },
    notes: [
      'Without a problem, the first in the ladder not yet solved.',
      'In a terminal it watches until q or Ctrl-C; h shows the next hint.',
    ],
    example: 'npm run kata 933 -- --once',
  });
  const problems = loadProblems();
  const problem = positionals[0]
    ? resolveProblem(problems, positionals[0])
    : pickNext(problems, io);
  if (!problem) {
    io.out(io.style.green('Every problem is accepted. Try the follow-ups: npm run grade'));
    return 0;
  }
  io.out(renderMarkdown(readStatement(problem), io.style));
  const stub = path.relative(process.cwd(), problem.stubFile);
  io.out(`\n${io.style.bold('Your solution:')} ${stub}:1\n`);
  if (values.open) openInEditor(problem.stubFile, io);
  const { accepted, unsaved } = await judgeAndShow(problem, values.reveal, io);
  if (!(values.watch || (io.interactive && !values.once))) {
    if (unsaved) throw unsaved;
    return accepted ? 0 : 1;
  }
  // Watching goes on: the learner can fix the state folder meanwhile.
  if (unsaved) io.err(`error: ${errorLine(unsaved.message)}`);

  // One child process serves every judgement of this session: a save costs no process start.
  const slot: SessionSlot = {};
  const watcher = watch(problem.stubFile, { ignoreInitial: true });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const watching = `Watching ${stub}: save to judge again · h for a hint · q or Ctrl-C to quit`;
  io.out(`\n${wrap(watching, WIDTH, '  ').split('\n').map(io.style.dim).join('\n')}`);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const rejudge = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        io.out(`\n${io.style.dim(`— ${new Date().toLocaleTimeString()} · judging again —`)}`);
        const judged = await judgeAndShow(problem, values.reveal, io, slot);
        if (judged.unsaved) io.err(`error: ${errorLine(judged.unsaved.message)}`);
      });
    }, DEBOUNCE_MS);
  };
  watcher.on('change', rejudge).on('add', rejudge);
  // A hint waits for a judgement in progress, so that it never lands in the middle of a report.
  const hint = (): void => {
    running = running.then(() => {
      try {
        io.out('');
        showNextHint(problem, io, 'press h');
      } catch (error) {
        // Missing hints must not end the watch: say so and carry on.
        io.err(`error: ${(error as Error).message}`);
      }
    });
  };
  await (options.untilQuit ?? keyboardQuit(hint));
  clearTimeout(timer);
  await watcher.close();
  await running;
  releaseSlot(slot);
  return 0;
}

/** Resolves on `q`, Ctrl-C or the end of standard input; `h` asks for a hint meanwhile. */
function keyboardQuit(onHint: () => void): Promise<void> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    const stop = (): void => {
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
      resolve();
    };
    stdin.on('data', (key: string) => {
      if (key === 'q' || key === '\u0003') stop();
      else if (key === 'h') onHint();
    });
    stdin.on('end', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    stdin.resume();
  });
}
