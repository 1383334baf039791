// `npm run interview [name] [-- --practice --once --json --restart --history]`: the ladder walked as
// a timed mock interview. Each rung is the interviewer's question: a kata to write in a file of the
// interview's own (judged on every save exactly as `kata` judges, until the rung's gate passes), or
// a few multiple-choice questions. The clock is a deadline in the saved state (interview-state.ts):
// quitting and running the command again resumes with the time really left. At the end the learner
// rates themselves, then sees the scorecard, which is kept in the progress file.
import type { InterviewOutcome } from '../../harness/learner/interview-record.ts';
import { loadProgress } from '../../harness/learner/progress.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, shownArg, UsageError, type IO } from '../lib/cli.ts';
import {
  currentRung,
  endInterview,
  freshWorkspace,
  isUntouchedStub,
  leaveRung,
  otherRunner,
  readOpen,
  remainingMs,
  removeOpen,
  saveOpen,
  startInterview,
  toRecord,
  withOpenLock,
  type OpenInterview,
  type RungState,
} from '../lib/interview-state.ts';
import { clock, historyLines, stateJson, stateLines } from '../lib/interview-screen.ts';
import { loadInterviews, type InterviewDef } from '../lib/interviews.ts';
import { type LineInput } from '../lib/lines.ts';

import { lineKeys, terminalKeys, type Keys } from '../lib/interview-keys.ts';
import { emptyReport, keep, Run } from './interview-run.ts';
import { runWatch } from './interview-watch.ts';

export interface InterviewOptions {
  /** The wall clock, in ms (tests pass a fake one). */
  now?: () => number;
  /** Keys or answers (tests pass lines); standard input otherwise. */
  input?: LineInput;
  /** How often the clock is looked at while watching. */
  tickMs?: number;
}

/** Judges the current rung once, answers discussion rungs from the input, prints the state. */
async function runOnce(run: Run, keys: Keys, json: boolean, io: IO): Promise<number> {
  const { state } = run;
  let outcome: InterviewOutcome | undefined;
  if (remainingMs(state, run.now()) === 0) {
    await run.timeUp();
    outcome = 'time-up';
  } else {
    outcome = await onceThrough(run, keys);
  }
  const record = outcome ? await run.finish(outcome, keys.next) : undefined;
  if (json) io.out(JSON.stringify(stateJson(state, run.now(), record)));
  else if (!record) io.out(['', ...stateLines(state, run.now(), io.style)].join('\n'));
  return record ? 0 : 1;
}

async function onceThrough(run: Run, keys: Keys): Promise<InterviewOutcome | undefined> {
  if (currentRung(run.state)?.kind === 'code') {
    run.showCurrent();
    if (!(await judgeOnce(run))) return undefined;
  }
  return askDiscussions(run, keys);
}

/** Judges the current coding rung's file; true when the rung was left (or became questions). */
async function judgeOnce(run: Run): Promise<boolean> {
  const rung = currentRung(run.state) as RungState;
  const problem = run.problemOf(rung);
  if (rung.kind !== 'code' || !problem || !rung.file) return true;
  if (isUntouchedStub(rung.file, problem)) {
    run.take(rung, emptyReport(problem), true);
    return false;
  }
  const report = await run.judgeFile(rung);
  return report === undefined || run.take(rung, report, false);
}

/** Discussion rungs need no file: asked now, answers read one per line, up to a coding rung. */
async function askDiscussions(run: Run, keys: Keys): Promise<InterviewOutcome | undefined> {
  const { state } = run;
  let shown: string | undefined;
  for (let rung = currentRung(state); rung; rung = currentRung(state)) {
    const asking = `${rung.id}:${rung.attempts}`;
    if (shown?.split(':')[0] !== rung.id) run.showCurrent();
    else if (shown !== asking) run.showQuestion(rung);
    shown = asking;
    if (rung.kind === 'code') return undefined;
    const key = await keys.next();
    if (key === null) return undefined;
    if (key === 'e') return 'ended';
    if (key === 's') {
      leaveRung(state, 'skipped', run.now());
      run.save();
    } else if (!run.answer(rung, key)) {
      run.io.out(`"${shownArg(key)}" is not one of the choices.`);
    }
  }
  return 'completed';
}

function listInterviews(defs: InterviewDef[], io: IO): void {
  io.out(io.style.bold('Interviews:'));
  for (const def of defs) {
    const rungs = def.rungs.length;
    const line = `  ${def.name.padEnd(14)} ${clock(def.budgetMs).replace(/:00$/, ' min').padStart(6)} · ${rungs} questions · ${def.title}`;
    // A long title continues under itself, clear of the name and the budget.
    io.out(wrap(line, WIDTH, ' '.repeat(26)));
  }
  io.out(
    io.style.dim(
      wrap(
        '\nStart one with: npm run interview <name> (add -- --practice to be able to pause, with no score)',
        WIDTH,
        '  ',
      ),
    ),
  );
}

function resolveInterview(defs: InterviewDef[], name: string): InterviewDef {
  const def = defs.find((d) => d.name === name);
  if (def) return def;
  throw new UsageError(
    `Unknown interview "${shownArg(name)}". Interviews: ${defs.map((d) => d.name).join(', ')}.`,
  );
}

function abandon(state: OpenInterview, now: number, io: IO): void {
  endInterview(state, 'abandoned', now);
  keep(toRecord(state, 'abandoned', null, now), io);
  removeOpen();
  io.out(
    io.style.dim(`Abandoned the interview ${state.name} (kept in your history as abandoned).`),
  );
}

export async function interview(
  argv: string[],
  io: IO,
  options: InterviewOptions = {},
): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'interview',
    args: '[name]',
    maxArgs: 1,
    summary:
      'The ladder as a timed mock interview: one question at a time, each judged like a kata.',
    options: {
      practice: {
        type: 'boolean',
        default: false,
        help: 'start it in practice mode: p pauses, no score',
      },
      once: {
        type: 'boolean',
        default: false,
        help: 'judge the current file once, print the state and exit (0 when complete)',
      },
      json: { type: 'boolean', default: false, help: 'print the state as JSON' },
      restart: {
        type: 'boolean',
        default: false,
        help: 'abandon the open interview (kept as abandoned) and start afresh',
      },
      history: {
        type: 'boolean',
        default: false,
        help: 'list the interviews you have taken, with their scores',
      },
      reveal: {
        type: 'boolean',
        default: false,
        help: 'also show the input and output of failing hidden cases',
      },
      verbose: {
        type: 'boolean',
        default: false,
        help: 'show every failing case in full, not only the likely causes',
      },
      watch: { type: 'boolean', default: false, hidden: true, help: 'watch without a terminal' },
    },
    notes: [
      'Without a name: resumes the open interview, or lists them.',
      'In a terminal it watches your file; keys: h hint, s give up a question, e end, q quit (the clock keeps running).',
    ],
    example: 'npm run interview warm-up',
  });
  const now = options.now ?? monotonicWall();
  if (values.history) {
    const records = loadProgress(io.err).interviews ?? [];
    if (records.length === 0) io.out('No interview taken yet: npm run interview');
    else
      io.out([io.style.bold('Interviews taken:'), ...historyLines(records, io.style)].join('\n'));
    return 0;
  }
  const defs = loadInterviews();
  const wanted = positionals[0] === undefined ? undefined : resolveInterview(defs, positionals[0]);
  // --json alone only looks: it may look at an interview another terminal is running.
  if (values.json && !values.once && !values.restart) {
    const looked = readOpen(io.err);
    if (!looked || (wanted && wanted.name !== looked.name)) {
      throw new UsageError(
        `no interview${wanted ? ` ${wanted.name}` : ''} is open: npm run interview <name> starts one`,
      );
    }
    io.out(JSON.stringify(stateJson(looked, now())));
    return 0;
  }
  const opened = withOpenLock(() => open(wanted, values, defs, io, now));
  if (opened === undefined) return 0;
  const { state, def } = opened;
  const watching = !values.once && (values.watch || io.interactive);
  // With --json, standard output holds the JSON only: what a person would read goes to stderr.
  const quiet = values.json ? { ...io, out: io.err, transient: undefined, clear: undefined } : io;
  const run = new Run(state, def, quiet, now, watching, {
    reveal: values.reveal,
    verbose: values.verbose,
  });
  const keys =
    io.interactive && watching && options.input === undefined
      ? terminalKeys()
      : lineKeys(options.input);
  try {
    if (watching) return await runWatch(run, keys, options.tickMs ?? 1000);
    return await runOnce(run, keys, values.json, io);
  } finally {
    keys.close();
    await run.close();
    withOpenLock(() => {
      const still = readOpen(() => undefined);
      if (still?.id === state.id && still.pid === process.pid) saveOpen({ ...state, pid: null });
    });
  }
}

/**
 * The wall clock, never going back within one run: a clock set back must not give time back. (A
 * machine that sleeps moves it forward, and an interview's time really passes then.)
 */
function monotonicWall(): () => number {
  let last = 0;
  return () => {
    last = Math.max(last, Date.now());
    return last;
  };
}

/**
 * The interview to run: the open one (resumed), or a new one. Undefined when there is nothing to
 * run (the list was shown). Refuses a second interview while one is open, and one that another
 * process is running.
 */
function open(
  wanted: InterviewDef | undefined,
  values: { practice: boolean; restart: boolean; json: boolean },
  defs: InterviewDef[],
  io: IO,
  now: () => number,
): { state: OpenInterview; def: InterviewDef } | undefined {
  let state = readOpen(io.err);
  if (state) {
    const runner = otherRunner(state);
    if (runner !== undefined) {
      throw new UsageError(
        `the interview ${state.name} is running in another terminal (process ${runner}).`,
      );
    }
  }
  if (state && values.restart) {
    const name = state.name;
    abandon(state, now(), io);
    state = undefined;
    wanted ??= defs.find((d) => d.name === name);
  }
  if (state) {
    const openDef = defs.find((d) => d.name === state?.name);
    if (wanted && wanted.name !== state.name) {
      throw new UsageError(
        `the interview ${state.name} is open (${clock(remainingMs(state, now()))} left): resume it ` +
          'with npm run interview, or abandon it with npm run interview -- --restart',
      );
    }
    if (!openDef) {
      throw new UsageError(
        `the open interview ${state.name} is no longer in interviews/: abandon it with npm run interview -- --restart`,
      );
    }
    if (values.practice && state.mode !== 'practice') {
      io.err('note: --practice applies when an interview starts; this one goes on without pauses.');
    }
    state.pid = process.pid;
    saveOpen(state);
    return { state, def: openDef };
  }
  if (!wanted) {
    if (values.restart)
      throw new UsageError('no interview is open: npm run interview <name> starts one');
    if (values.json)
      throw new UsageError('no interview is open: npm run interview <name> starts one');
    listInterviews(defs, io);
    return undefined;
  }
  const started = now();
  freshWorkspace(wanted.name, started);
  const fresh = startInterview(wanted, values.practice ? 'practice' : 'interview', started);
  fresh.pid = process.pid;
  saveOpen(fresh);
  return { state: fresh, def: wanted };
}
