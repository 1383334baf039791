// `npm run interview [name] [-- --practice --once --json --restart --history]`: the ladder walked as
// a timed mock interview. Each rung is the interviewer's question: a kata to write in a file of the
// interview's own (judged on every save exactly as `kata` judges, until the rung's gate passes), or
// a few multiple-choice questions. The clock is a deadline in the saved state (interview-state.ts):
// quitting and running the command again resumes with the time really left. At the end the learner
// rates themselves, then sees the scorecard, which is kept in the progress file.
import { watch } from 'chokidar';
import { judge, releaseSlot, type SessionSlot } from '../../harness/judge/judge.ts';
import type { ProblemReport } from '../../harness/judge/outcome.ts';
import type { Problem } from '../../harness/judge/problems.ts';
import { unmetRequirement } from '../../harness/judge/requirements.ts';
import type { InterviewOutcome, InterviewRecord } from '../../harness/learner/interview-record.ts';
import { loadHints } from '../../harness/learner/learning.ts';
import { loadProgress, updateProgress } from '../../harness/learner/progress.ts';
import { RedisStartError } from '../../harness/redis/server.ts';
import { CommandRedis, redisStartLine } from '../../harness/redis/session.ts';
import { formatReport, paintVerdict, VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { parse, shownArg, UsageError, type IO } from '../lib/cli.ts';
import {
  currentRung,
  dueWarnings,
  endInterview,
  ensureRungFile,
  freshWorkspace,
  isOver,
  isUntouchedStub,
  leaveRung,
  otherRunner,
  readOpen,
  recordAnswer,
  recordHint,
  recordJudgement,
  remainingMs,
  removeOpen,
  saveOpen,
  startInterview,
  toRecord,
  togglePause,
  withOpenLock,
  type OpenInterview,
  type RungState,
} from '../lib/interview-state.ts';
import {
  clock,
  header,
  historyLines,
  keysLine,
  questionLines,
  scorecard,
  stateJson,
  stateLines,
} from '../lib/interview-screen.ts';
import {
  loadInterviews,
  type InterviewDef,
  type Question,
  type RungDef,
} from '../lib/interviews.ts';
import { readLines, toNextLine, type LineInput, type NextLine } from '../lib/lines.ts';
import { hintLines } from './hint.ts';
import { parseAnswer, shuffledOrder } from './quiz.ts';

/** Where keys come from: a terminal gives one per key press, a pipe one per line. */
export interface Keys {
  next: NextLine;
  close: () => void;
}

export interface InterviewOptions {
  /** The wall clock, in ms (tests pass a fake one). */
  now?: () => number;
  /** Keys or answers (tests pass lines); standard input otherwise. */
  input?: LineInput;
  /** How often the clock is looked at while watching. */
  tickMs?: number;
}

/** Saves closer together than this are judged once. */
const DEBOUNCE_MS = 40;

const letter = (i: number): string => String.fromCharCode(97 + i);

/** Key presses from a terminal in raw mode; Ctrl-C is `q`. */
function terminalKeys(): Keys {
  const stdin = process.stdin;
  const queued: (string | null)[] = [];
  const waiting: ((key: string | null) => void)[] = [];
  const push = (key: string | null): void => {
    const waiter = waiting.shift();
    if (waiter) waiter(key);
    else queued.push(key);
  };
  const onData = (data: string): void => push(data === '\u0003' ? 'q' : data);
  const onEnd = (): void => push(null);
  const onSignal = (): void => push('q');
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.on('data', onData).on('end', onEnd);
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  stdin.resume();
  return {
    next: () =>
      queued.length > 0
        ? Promise.resolve(queued.shift() as string | null)
        : new Promise((resolve) => waiting.push(resolve)),
    close: () => {
      stdin.off('data', onData).off('end', onEnd);
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      stdin.setRawMode(false);
      stdin.pause();
    },
  };
}

function lineKeys(input: LineInput | undefined): Keys {
  const reader = input === undefined ? readLines() : undefined;
  const next = reader ? reader.next : toNextLine(input as LineInput);
  return {
    next: async () => {
      const line = await next();
      return line === null ? null : line.trim();
    },
    close: () => reader?.close(),
  };
}

type Event =
  | { kind: 'key'; key: string | null }
  | { kind: 'save' }
  | { kind: 'tick' }
  | { kind: 'judged'; report: ProblemReport; untouched: boolean; token: number };

/** Events from keys, saves, the clock and judgements, taken one at a time. */
class Inbox {
  private queued: Event[] = [];
  private waiting: ((event: Event) => void)[] = [];
  push(event: Event): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(event);
    else this.queued.push(event);
  }
  next(): Promise<Event> {
    const event = this.queued.shift();
    return event ? Promise.resolve(event) : new Promise((resolve) => this.waiting.push(resolve));
  }
}

/** One run of the command on one interview. */
class Run {
  readonly redis = new CommandRedis();
  readonly slot: SessionSlot;
  /** The shown order of the current discussion question's choices. */
  private order: number[] | undefined;

  constructor(
    readonly state: OpenInterview,
    readonly def: InterviewDef,
    readonly io: IO,
    readonly now: () => number,
    readonly watching: boolean,
  ) {
    this.slot = { keepSpare: watching };
  }

  spec(rung: RungState): RungDef {
    return this.def.rungs.find((r) => r.id === rung.id) as RungDef;
  }

  problemOf(rung: RungState): Problem | undefined {
    const spec = this.spec(rung);
    return spec.kind === 'code' && rung.kind === 'code' ? spec.problem : undefined;
  }

  questionsOf(rung: RungState): Question[] {
    const spec = this.spec(rung);
    return spec.kind === 'discussion' ? spec.questions : spec.without;
  }

  save(): void {
    saveOpen(this.state);
  }

  /** A coding rung this machine cannot judge is asked as questions, with one line saying why. */
  asDiscussion(rung: RungState, why: string): void {
    rung.kind = 'discussion';
    rung.file = null;
    rung.gate = [];
    rung.note = `${why.split('\n')[0]} So this question is asked as a discussion.`;
    this.save();
  }

  /** Makes the current rung ready to be asked: its file copied in, or turned into questions. */
  prepare(rung: RungState): boolean {
    const problem = this.problemOf(rung);
    if (!problem || !rung.file) return false;
    const unmet = unmetRequirement(problem);
    if (unmet) {
      this.asDiscussion(rung, unmet.message);
      return false;
    }
    const copied = ensureRungFile(rung.file, problem);
    const earlier = this.state.rungs.slice(0, this.state.current);
    return !copied && earlier.some((r) => r.problem === rung.problem);
  }

  async judgeFile(rung: RungState, signal?: AbortSignal): Promise<ProblemReport | undefined> {
    const problem = this.problemOf(rung) as Problem;
    try {
      await this.redis.optionsFor(problem);
    } catch (error) {
      if (!(error instanceof RedisStartError)) throw error;
      this.asDiscussion(rung, redisStartLine(error));
      return undefined;
    }
    if (this.io.transient) this.io.transient(this.io.style.dim('Judging…'));
    return judge({
      problem,
      solutionFile: rung.file as string,
      slot: this.slot,
      signal,
      redis: () => this.redis.optionsFor(problem),
      onDecided: (verdict) =>
        this.io.transient?.(
          this.io.style.dim(`${VERDICT_LABEL[verdict]} · checking the follow-ups…`),
        ),
    });
  }

  /** Shows a judgement and takes it; true when the gate passed and the next question is asked. */
  take(rung: RungState, report: ProblemReport, untouched: boolean): boolean {
    const problem = this.problemOf(rung) as Problem;
    if (untouched) {
      this.io.out(`Your file is still the stub: write your solution in it and save.`);
    } else {
      this.io.out(formatReport(problem, report, { reveal: false, style: this.io.style }));
    }
    const passed = recordJudgement(this.state, report, untouched, this.now());
    this.save();
    if (!untouched) {
      const gate = rung.gate.length > 0 ? ` + ${rung.gate.join(', ')}` : '';
      const mark = passed
        ? this.io.style.green('✓ gate passed')
        : this.io.style.yellow('✗ not yet');
      this.io.out(`\n${paintVerdict(report.verdict, this.io.style)}\nGate (core${gate}): ${mark}`);
    }
    return passed;
  }

  /**
   * The current question, with its file or its first unanswered choice. `fresh` clears the screen
   * first; after a passed gate it is not cleared, so that the report that passed stays above.
   */
  showCurrent(fresh = true): void {
    const rung = currentRung(this.state);
    if (!rung) return;
    const carried = this.prepare(rung);
    if (this.watching && fresh) this.io.clear?.();
    if (!fresh) this.io.out(this.io.style.dim(`\n${'─'.repeat(WIDTH)}`));
    this.io.out(header(this.state, this.now(), this.io.style));
    this.io.out(
      questionLines(this.state, rung, this.spec(rung).ask, this.io.style, carried).join('\n'),
    );
    if (rung.kind === 'discussion') this.showQuestion(rung);
  }

  showQuestion(rung: RungState): void {
    const questions = this.questionsOf(rung);
    const question = questions[rung.attempts] as Question;
    this.order = shuffledOrder(question.choices.length);
    this.io.out(this.io.style.bold(`Question ${rung.attempts + 1} of ${questions.length}`));
    this.io.out(wrap(question.question));
    this.order.forEach((choice, i) => {
      this.io.out(wrap(`  ${letter(i)}) ${question.choices[choice]}`, WIDTH, '     '));
    });
    const range = `a–${letter(question.choices.length - 1)}`;
    this.io.out(this.io.style.dim(`Your answer (${range}; s skips the rest):`));
  }

  /** A discussion answer; false when the key names no choice. */
  answer(rung: RungState, key: string): boolean {
    const questions = this.questionsOf(rung);
    const question = questions[rung.attempts] as Question;
    const chosen = parseAnswer(key, question.choices.length);
    if (chosen === undefined || !this.order) return false;
    const right = this.order[chosen] === question.answer;
    const shownRight = letter(this.order.indexOf(question.answer));
    this.io.out(
      right
        ? this.io.style.green('✓ Right.')
        : this.io.style.red(`✗ The answer is ${shownRight}).`),
    );
    this.io.out(wrap(question.why));
    recordAnswer(this.state, right, questions.length, this.now());
    this.save();
    return true;
  }

  hint(rung: RungState): void {
    const problem = this.problemOf(rung);
    if (!problem) return;
    const hints = loadHints(problem);
    const seen = Math.min(rung.hints, hints.length);
    const shown = Math.min(seen + 1, hints.length);
    if (shown > seen) recordHint(this.state, shown === hints.length);
    this.save();
    const out = [''];
    for (let i = 0; i < shown; i++)
      out.push(...hintLines(hints, i, i < seen ? 'seen' : 'new', this.io.style));
    if (shown === hints.length) {
      out.push(
        this.io.style.yellow(
          'That is the last hint: it gives the idea away, so this rung will not count as passed.',
        ),
      );
    }
    this.io.out(out.join('\n'));
  }

  warn(): void {
    for (const minutes of dueWarnings(this.state, this.now())) {
      this.io.out(this.io.style.yellow(this.io.style.bold(`⏰ ${minutes} minutes left.`)));
      this.save();
    }
  }

  /** Time is up: the current file is judged once more (an untouched stub is not), then it ends. */
  async timeUp(): Promise<void> {
    this.io.out(this.io.style.yellow(this.io.style.bold('⏰ Time is up.')));
    const rung = currentRung(this.state);
    if (rung?.kind === 'code' && rung.file) {
      const problem = this.problemOf(rung) as Problem;
      if (!isUntouchedStub(rung.file, problem)) {
        this.io.out(this.io.style.dim('Your saved file is judged one last time.'));
        const report = await this.judgeFile(rung);
        if (report) this.take(rung, report, false);
      }
    }
  }

  async rate(keys: NextLine): Promise<number | null> {
    this.io.out(
      wrap(
        '\nBefore the scorecard: how did it go? 1 no hire · 2 lean no hire · 3 hire · ' +
          '4 strong hire (Enter to skip)',
      ),
    );
    for (;;) {
      const key = await keys();
      if (key === null || key === '' || key === '\r' || key === 'q') return null;
      const n = Number(key);
      if (Number.isInteger(n) && n >= 1 && n <= 4) return n;
      this.io.out(`"${shownArg(key)}" is not 1, 2, 3 or 4.`);
    }
  }

  /** Ends it: asks for the learner's own rating, keeps the record, shows the scorecard. */
  async finish(outcome: InterviewOutcome, keys: NextLine): Promise<InterviewRecord> {
    const now = this.now();
    if (!isOver(this.state)) endInterview(this.state, outcome, now);
    this.save();
    const selfRating = await this.rate(keys);
    const record = toRecord(this.state, outcome, selfRating, this.now());
    keep(record, this.io);
    removeOpen();
    this.io.out(['', ...scorecard(record, this.def, this.io.style)].join('\n'));
    return record;
  }

  close(): Promise<void> {
    releaseSlot(this.slot);
    return this.redis.close();
  }
}

function keep(record: InterviewRecord, io: IO): void {
  updateProgress(io.err, (progress) => {
    (progress.interviews ??= []).push(record);
  });
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
  const { state } = run;
  let rung = currentRung(state);
  if (rung?.kind === 'code') {
    run.showCurrent();
    rung = currentRung(state) as RungState;
    if (rung.kind === 'code') {
      const problem = run.problemOf(rung) as Problem;
      const untouched = isUntouchedStub(rung.file as string, problem);
      const report = untouched ? undefined : await run.judgeFile(rung);
      if (untouched) run.take(rung, emptyReport(problem), true);
      else if (report && !run.take(rung, report, false)) return undefined;
      if (untouched) return undefined;
    }
  }
  // Discussion rungs need no file: asked now, answers read one per line.
  for (let next = currentRung(state); next; next = currentRung(state)) {
    run.showCurrent();
    if (next.kind === 'code') return undefined;
    const key = await keys.next();
    if (key === null) return undefined;
    if (key === 's') leaveRung(state, 'skipped', run.now());
    else if (key === 'e') return 'ended';
    else if (!run.answer(next, key)) run.io.out(`"${shownArg(key)}" is not one of the choices.`);
    if (currentRung(state) === next && next.kind === 'discussion') continue;
  }
  return 'completed';
}

const emptyReport = (problem: Problem): ProblemReport => ({
  dir: problem.dir,
  verdict: 'not-started',
  cases: [],
  followUps: { passed: 0, total: 0 },
  output: '',
  ms: 0,
});

/** Watches until the interview ends, the learner quits, or time is up. */
async function runWatch(run: Run, keys: Keys, tickMs: number): Promise<number> {
  const { state, io } = run;
  const inbox = new Inbox();
  void (async () => {
    for (;;) {
      const key = await keys.next();
      inbox.push({ kind: 'key', key });
      if (key === null) return;
    }
  })();
  const ticker = setInterval(() => inbox.push({ kind: 'tick' }), tickMs);
  let watcher: ReturnType<typeof watch> | undefined;
  let judging: AbortController | undefined;
  let token = 0;
  let busy = false;
  const status = (): void => {
    if (!busy && io.transient) {
      io.transient(
        io.style.dim(
          state.pausedAt !== null
            ? `paused at ${clock(remainingMs(state, run.now()))} left · p to go on`
            : `${clock(remainingMs(state, run.now()))} left · ${keysLine(state, currentRung(state))}`,
        ),
      );
    }
  };
  const startJudging = (): void => {
    const rung = currentRung(state);
    if (rung?.kind !== 'code' || !rung.file) return;
    judging?.abort();
    const controller = new AbortController();
    judging = controller;
    const mine = ++token;
    busy = true;
    const problem = run.problemOf(rung) as Problem;
    const untouched = isUntouchedStub(rung.file, problem);
    if (untouched) {
      inbox.push({ kind: 'judged', report: emptyReport(problem), untouched, token: mine });
      return;
    }
    void run.judgeFile(rung, controller.signal).then((report) => {
      if (report) inbox.push({ kind: 'judged', report, untouched, token: mine });
      else
        inbox.push({
          kind: 'judged',
          report: { ...emptyReport(problem), cancelled: true },
          untouched,
          token: mine,
        });
    });
  };
  const ask = async (fresh = true): Promise<void> => {
    await watcher?.close();
    watcher = undefined;
    run.showCurrent(fresh);
    const rung = currentRung(state);
    if (rung?.kind !== 'code' || !rung.file) return;
    watcher = watch(rung.file, { ignoreInitial: true });
    // Saves closer together than this are judged once (an editor may write a file in two steps).
    let debounce: NodeJS.Timeout | undefined;
    const saved = (): void => {
      clearTimeout(debounce);
      debounce = setTimeout(() => inbox.push({ kind: 'save' }), DEBOUNCE_MS);
    };
    watcher.on('change', saved).on('add', saved);
    await new Promise<void>((resolve) => watcher?.once('ready', () => resolve()));
    if (!io.transient) io.out(io.style.dim(wrap(keysLine(state, rung), WIDTH, '  ')));
    // A file already written (carried over, or resumed) is judged at once.
    if (!isUntouchedStub(rung.file, run.problemOf(rung) as Problem)) startJudging();
  };
  const leave = async (outcome: InterviewOutcome): Promise<number> => {
    clearInterval(ticker);
    judging?.abort();
    await watcher?.close();
    await run.finish(outcome, async () => {
      for (;;) {
        const event = await inbox.next();
        if (event.kind === 'key') return event.key;
      }
    });
    return 0;
  };
  await ask();
  // After the question, which clears the screen: resumed with little time left, it is said.
  run.warn();
  for (;;) {
    const event = await inbox.next();
    const rung = currentRung(state);
    if (event.kind === 'tick') {
      if (remainingMs(state, run.now()) === 0) {
        judging?.abort();
        busy = true;
        await run.timeUp();
        return leave('time-up');
      }
      run.warn();
      status();
    } else if (event.kind === 'save') {
      startJudging();
    } else if (event.kind === 'judged') {
      if (event.token !== token || event.report.cancelled || !rung) continue;
      busy = false;
      if (rung.kind !== 'code') continue;
      if (event.untouched) continue;
      io.clear?.();
      io.out(header(state, run.now(), io.style));
      if (run.take(rung, event.report, false)) {
        if (isOver(state)) return leave('completed');
        await ask(false);
      } else if (!io.transient) {
        io.out(io.style.dim(wrap(keysLine(state, rung), WIDTH, '  ')));
      } else {
        status();
      }
    } else {
      const key = event.key;
      if (key === null || key === 'q') {
        clearInterval(ticker);
        judging?.abort();
        await watcher?.close();
        io.out(
          wrap(
            `\nStopped. The clock keeps running (${clock(remainingMs(state, run.now()))} left): npm run interview picks up where you are.`,
          ),
        );
        return 0;
      }
      if (key === 'e') return leave('ended');
      if (!rung) continue;
      if (key === 's') {
        judging?.abort();
        busy = false;
        leaveRung(state, 'skipped', run.now());
        run.save();
        if (isOver(state)) return leave('completed');
        await ask();
      } else if (key === 'p') {
        if (state.mode !== 'practice') {
          io.out(io.style.dim('No pausing in an interview (start one with --practice to pause).'));
        } else {
          const paused = togglePause(state, run.now());
          run.save();
          io.out(io.style.dim(paused ? 'Paused: p to go on.' : 'The clock runs again.'));
        }
      } else if (key === 'h' && rung.kind === 'code') {
        run.hint(rung);
      } else if (rung.kind === 'discussion' && key.length > 0) {
        if (!run.answer(rung, key)) continue;
        if (isOver(state)) return leave('completed');
        if (currentRung(state) === rung) run.showQuestion(rung);
        else await ask();
      }
    }
  }
}

function listInterviews(defs: InterviewDef[], io: IO): void {
  io.out(io.style.bold('Interviews:'));
  for (const def of defs) {
    const rungs = def.rungs.length;
    io.out(
      `  ${def.name.padEnd(14)} ${clock(def.budgetMs).replace(/:00$/, ' min').padStart(6)} · ${rungs} questions · ${def.title}`,
    );
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
  const opened = withOpenLock(() => open(wanted, values, defs, io, now));
  if (opened === undefined) return 0;
  const { state, def } = opened;
  const watching = !values.once && (values.watch || io.interactive);
  // With --json, standard output holds the JSON only: what a person would read goes to stderr.
  const quiet = values.json ? { ...io, out: io.err, transient: undefined, clear: undefined } : io;
  const run = new Run(state, def, quiet, now, watching);
  const keys =
    io.interactive && watching && options.input === undefined
      ? terminalKeys()
      : lineKeys(options.input);
  try {
    if (values.json && !values.once) {
      io.out(JSON.stringify(stateJson(state, now())));
      return 0;
    }
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
