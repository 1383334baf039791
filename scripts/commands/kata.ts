// `npm run kata [problem] [--once] [--reveal]`: shows a problem, judges the stub, and in a terminal
// re-judges on every save until `q` or Ctrl-C. Without a terminal (or with --once) it judges once and
// exits 0 only if the solution is accepted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';
import { judge } from '../../harness/judge.ts';
import { renderMarkdown } from '../../harness/markdown.ts';
import { loadProblems, type Problem } from '../../harness/problems.ts';
import { isSolved, loadProgress, recordReport, saveProgress } from '../../harness/progress.ts';
import { formatReport, VERDICT_LABEL } from '../../harness/report.ts';
import { parse, resolveProblem, type IO } from '../lib/cli.ts';

/** Saves closer together than this are judged once. */
const DEBOUNCE_MS = 40;

async function judgeAndShow(problem: Problem, reveal: boolean, io: IO): Promise<boolean> {
  const report = await judge({
    problem,
    solutionFile: problem.stubFile,
    // The verdict is known once the example and core cases are in: say it before the follow-ups run.
    onDecided: (verdict) =>
      io.out(`${VERDICT_LABEL[verdict]} ${io.style.dim('· checking the follow-ups…')}`),
  });
  const progress = loadProgress(io.err);
  recordReport(progress, report);
  saveProgress(progress);
  io.out(formatReport(problem, report, { reveal, style: io.style }));
  return report.verdict === 'accepted';
}

function pickNext(problems: Problem[], io: IO): Problem | undefined {
  const progress = loadProgress(io.err);
  return problems.find((p) => !isSolved(progress, p.dir));
}

export interface KataOptions {
  /** Resolves when the learner asks to quit (tests pass their own). */
  untilQuit?: Promise<void>;
}

export async function kata(argv: string[], io: IO, options: KataOptions = {}): Promise<number> {
  const { values, positionals } = parse(argv, {
    once: { type: 'boolean', default: false },
    watch: { type: 'boolean', default: false },
    reveal: { type: 'boolean', default: false },
  });
  const problems = loadProblems();
  const problem = positionals[0]
    ? resolveProblem(problems, positionals[0])
    : pickNext(problems, io);
  if (!problem) {
    io.out(io.style.green('Every problem is accepted. Try the follow-ups: npm run grade'));
    return 0;
  }
  io.out(renderMarkdown(readFileSync(problem.statementFile, 'utf8'), io.style));
  const stub = path.relative(process.cwd(), problem.stubFile);
  io.out(`\n${io.style.bold('Your solution:')} ${stub}:1\n`);
  const accepted = await judgeAndShow(problem, values.reveal, io);
  const watching = values.watch || (io.interactive && !values.once);
  if (!watching) return accepted ? 0 : 1;

  const watcher = watch(problem.stubFile, { ignoreInitial: true });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  io.out(io.style.dim(`\nWatching ${stub}: save to judge again · q or Ctrl-C to quit`));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const rejudge = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        io.out(`\n${io.style.dim(`— ${new Date().toLocaleTimeString()} · judging again —`)}`);
        await judgeAndShow(problem, values.reveal, io);
      });
    }, DEBOUNCE_MS);
  };
  watcher.on('change', rejudge).on('add', rejudge);
  await (options.untilQuit ?? keyboardQuit());
  clearTimeout(timer);
  await watcher.close();
  await running;
  return 0;
}

/** Resolves on `q`, Ctrl-C or the end of standard input. */
function keyboardQuit(): Promise<void> {
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
    });
    stdin.on('end', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    stdin.resume();
  });
}
