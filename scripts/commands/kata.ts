// `npm run kata [problem] [-- --once --reveal --verbose --open]`: shows a problem, judges the stub,
// and in a terminal re-judges on every save until `q` or Ctrl-C (`h` shows the next hint): the
// screen is cleared for each judgement, a newer save cancels the one in progress, and quitting
// kills any child at once. Without a terminal (or with --once) it judges once and exits 0 only if
// the solution is accepted. --open starts the learner's editor on the stub.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { watch } from 'chokidar';
import { judge, releaseSlot, type SessionSlot } from '../../harness/judge/judge.ts';
import { renderMarkdown } from '../../harness/terminal/markdown.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { unmetRequirement } from '../../harness/judge/requirements.ts';
import { RedisStartError } from '../../harness/redis/server.ts';
import { CommandRedis, redisStartLine } from '../../harness/redis/session.ts';
import { warmTypeChecker } from '../../harness/judge/typecheck.ts';
import {
  isSolved,
  loadProgress,
  recordReport,
  updateProgress,
} from '../../harness/learner/progress.ts';
import { StateError } from '../../harness/learner/state.ts';
import { readTextOrThrow } from '../../harness/read-file.ts';
import { escapeControl } from '../../harness/escape.ts';
import { formatReport, paintVerdict, VERDICT_LABEL } from '../../harness/terminal/report.ts';
import type { Verdict } from '../../harness/judge/outcome.ts';
import { WIDTH, wrap, wrapKeepingCode } from '../../harness/terminal/wrap.ts';
import { isShippedStub } from '../../harness/learner/learning.ts';
import { errorLine, parse, resolveProblem, USAGE_EXIT, type IO } from '../lib/cli.ts';
import { readMaterial, showNextHint } from './hint.ts';

/** A statement is a page or two; anything far larger is not one. */
const MAX_STATEMENT_BYTES = 1024 * 1024;

/** Saves closer together than this are judged once. */
const DEBOUNCE_MS = 40;

/** How a judgement is shown. */
interface Showing {
  reveal: boolean;
  verbose: boolean;
  /** Watching with no terminal (a script such as the bench): progress is shown as lines. */
  scripted: boolean;
}

/**
 * A progress line: in a terminal, one that the report replaces; for a script watching without a
 * terminal, a line of its own (it marks when the verdict was known); piped otherwise, nothing.
 */
function progress(io: IO, showing: Showing, text: string): void {
  if (io.transient) io.transient(io.style.dim(text));
  else if (showing.scripted) io.out(text);
}

/** What to do after an accepted solution: the next problem, the quiz, the reference to compare. */
function nextSteps(problem: Problem, io: IO): string[] {
  const next = pickNext(loadProblems(), io);
  const steps = [
    next && next.dir !== problem.dir
      ? `npm run kata ${next.id} (next in the ladder: ${next.title})`
      : 'npm run grade (every problem with its follow-ups)',
    `npm run quiz ${problem.id} (the reasoning behind it)`,
    `npm run solution ${problem.id} (compare with the reference)`,
  ];
  return [io.style.bold('Next:'), ...steps.map((step) => wrap(`  ${step}`, WIDTH, '    '))];
}

/**
 * Judges the stub, records the report and shows it. Progress that cannot be saved does not hide the
 * verdict: the report is shown all the same, and the reason comes back as `unsaved`. A judgement
 * cancelled by `signal` shows and records nothing. Type errors make it a compile error, unless
 * `typeCheck` is false.
 */
async function judgeAndShow(
  problem: Problem,
  showing: Showing,
  io: IO,
  slot?: SessionSlot,
  signal?: AbortSignal,
  typeCheck = true,
  redis?: CommandRedis,
): Promise<{
  accepted: boolean;
  verdict?: Verdict;
  cancelled?: boolean;
  unsaved?: StateError;
  /** The judge's Redis could not be used or failed: nothing was judged, nothing recorded. */
  unjudged?: boolean;
}> {
  let decided: string | undefined;
  let done = 0;
  progress(io, showing, 'Judging…');
  const report = await judge({
    slot,
    signal,
    typeCheck,
    problem,
    solutionFile: problem.stubFile,
    // Keys of its own for every judgement; the server was started before the first.
    ...(redis ? { redis: () => redis.optionsFor(problem) } : {}),
    // Shown as soon as it is known (the first failing example or core case decides), while the
    // other cases still run.
    onDecided: (verdict) => {
      decided = VERDICT_LABEL[verdict];
      progress(io, showing, `${decided} · checking the follow-ups…`);
    },
    onCase: () => {
      done += 1;
      if (decided !== undefined && io.transient) {
        progress(io, showing, `${decided} · checking the other cases (${done} done)…`);
      }
    },
  }).catch((error: unknown) => {
    if (!(error instanceof RedisStartError)) throw error;
    // Not the learner's doing: one line, nothing recorded, and watching goes on (the next save
    // gets a Redis of its own).
    io.err(wrapKeepingCode(escapeControl(redisStartLine(error)), WIDTH, '  '));
    return undefined;
  });
  if (report === undefined) return { accepted: false, unjudged: true };
  if (report.cancelled) return { accepted: false, cancelled: true };
  let unsaved: StateError | undefined;
  try {
    // The stub as shipped, judged on opening the problem, is no attempt yet.
    const untouched = report.verdict === 'not-started' && isShippedStub(problem);
    updateProgress(io.err, (progress) => recordReport(progress, report, new Date(), { untouched }));
  } catch (error) {
    if (!(error instanceof StateError)) throw error;
    unsaved = error;
  }
  const { reveal, verbose } = showing;
  io.out(formatReport(problem, report, { reveal, verbose, style: io.style }));
  if (report.verdict === 'accepted') io.out(['', ...nextSteps(problem, io)].join('\n'));
  return { accepted: report.verdict === 'accepted', verdict: report.verdict, unsaved };
}

/**
 * The statement without its closing paragraph telling the reader to run `npm run kata <problem>`: kata
 * shows it while that very command runs.
 */
export function withoutRunLine(statement: string, problem: Problem): string {
  const escaped = [problem.id, problem.dir].map((name) =>
    name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  // The whole paragraph: it may run on to a second line.
  const line = new RegExp(
    `^Run \`npm run kata (?:${escaped.join('|')})\`(?:[^\n]|\n(?!\n))*\n?`,
    'm',
  );
  return statement.replace(line, '').trimEnd() + '\n';
}

/** The statement, read only if it is a regular file of a sane size: one clear line otherwise. */
function readStatement(problem: Problem): string {
  return readMaterial(problem, 'statement', () =>
    readTextOrThrow(problem.statementFile, MAX_STATEMENT_BYTES, 'a statement'),
  );
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
  // The problem's Redis, if it needs one: started once for the whole session (every save is judged
  // on it) and stopped when the command ends, whichever way.
  const redis = new CommandRedis();
  try {
    return await openKata(argv, io, options, redis);
  } finally {
    await redis.close();
  }
}

async function openKata(
  argv: string[],
  io: IO,
  options: KataOptions,
  redis: CommandRedis,
): Promise<number> {
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
      verbose: {
        type: 'boolean',
        default: false,
        help: 'show every failing case in full, not only the likely causes',
      },
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
  // A kata this machine cannot judge (no Redis, say) is not opened: one line says what is missing
  // and how to get it, before a statement the learner could not work on. Nothing is recorded.
  const unmet = unmetRequirement(problem);
  if (unmet) {
    io.err(wrapKeepingCode(escapeControl(unmet.message), WIDTH, '  '));
    return USAGE_EXIT;
  }
  // Started before anything is shown, so that a Redis that cannot be used is said in one line, as
  // when there is none; nothing is started for a problem without Redis.
  try {
    await redis.prepare(problem);
  } catch (error) {
    if (!(error instanceof RedisStartError)) throw error;
    // There is Redis, but it cannot be used: one line, as when there is none.
    io.err(wrapKeepingCode(escapeControl(redisStartLine(error)), WIDTH, '  '));
    return USAGE_EXIT;
  }
  io.out(renderMarkdown(withoutRunLine(readStatement(problem), problem), io.style));
  const stub = path.relative(process.cwd(), problem.stubFile);
  io.out(`\n${io.style.bold('Your solution:')} ${stub}:1\n`);
  if (values.open) openInEditor(problem.stubFile, io);
  const showing: Showing = {
    reveal: values.reveal,
    verbose: values.verbose,
    scripted: values.watch,
  };
  const watchMode = values.watch || (io.interactive && !values.once);
  // One child process serves every judgement of this session, the first included, with a spare
  // started beside it: a save costs no process start, even after a loop was stopped.
  const slot: SessionSlot = { keepSpare: watchMode };
  // Watching, the type checker starts at once, in the background: its cold start (a second or
  // more) is paid before the first save, and the first judgement does not wait for it. Should the
  // file have type errors, it is judged again once they are known (see below).
  const warming = watchMode
    ? warmTypeChecker(problem.stubFile, { home: path.dirname(problem.stubFile) })
    : undefined;
  const { accepted, unsaved, verdict, unjudged } = await judgeAndShow(
    problem,
    showing,
    io,
    slot,
    undefined,
    !watchMode,
    redis,
  );
  if (!watchMode) {
    releaseSlot(slot);
    if (unsaved) throw unsaved;
    if (unjudged) return USAGE_EXIT;
    return accepted ? 0 : 1;
  }
  // Watching goes on: the learner can fix the state folder meanwhile.
  if (unsaved) io.err(`error: ${errorLine(unsaved.message)}`);
  // The next save's Redis is started while the learner edits, as the spare child is: a save then
  // waits for no server start. One that fails here fails again, and is said, when a save needs it.
  const prepareNext = (): void => void redis.prepare(problem).catch(() => undefined);
  prepareNext();

  // Only the file itself: should solution.ts become a folder (or a link to /), what is inside it is
  // never walked; judging it says in one line that it is not a file.
  const inside = problem.stubFile + path.sep;
  const watcher = watch(problem.stubFile, {
    ignoreInitial: true,
    ignored: (file: string) => file.startsWith(inside),
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const watching = `Watching ${stub}: save to judge again · h for a hint · q or Ctrl-C to quit`;
  // The verdict again at the bottom, where the eye lands after a long report.
  const footer = (last: Verdict | undefined): string =>
    [
      ...(last ? [paintVerdict(last, io.style)] : []),
      ...wrap(watching, WIDTH, '  ').split('\n').map(io.style.dim),
    ].join('\n');
  io.out(`\n${footer(verdict)}`);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  // The judgement in progress, cancelled by a newer save or by quitting.
  let current: AbortController | undefined;
  // Every save asks for a judgement of the file as it is then: only the newest request runs.
  let wanted = 0;
  let quitting = false;
  const rejudge = (): void => {
    wanted += 1;
    const mine = wanted;
    current?.abort();
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        if (mine !== wanted || quitting) return;
        const controller = new AbortController();
        current = controller;
        io.clear?.();
        io.out(io.style.dim(`— ${new Date().toLocaleTimeString()} · judging ${stub} —`));
        const judged = await judgeAndShow(
          problem,
          showing,
          io,
          slot,
          controller.signal,
          true,
          redis,
        );
        if (current === controller) current = undefined;
        if (!quitting) prepareNext();
        if (judged.cancelled) return;
        if (judged.unsaved) io.err(`error: ${errorLine(judged.unsaved.message)}`);
        io.out(`\n${footer(judged.verdict)}`);
      });
    }, DEBOUNCE_MS);
  };
  watcher.on('change', rejudge).on('add', rejudge).on('addDir', rejudge);
  // The file as first judged has type errors: judge it again (with the checker warm by now), unless
  // a save has asked for that already.
  void warming?.then((errors) => {
    if (errors !== undefined && wanted === 0 && !quitting) rejudge();
  });
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
  // Quitting stops at once: the judgement in progress is cancelled (its child killed), none other starts.
  quitting = true;
  current?.abort();
  clearTimeout(timer);
  releaseSlot(slot);
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
