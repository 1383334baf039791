// One run of `npm run interview` on one interview: the state it changes, and what it shows as it
// does (the question, the judge's report, the gate, hints, discussion answers, the scorecard).
import { judge, releaseSlot, type SessionSlot } from '../../harness/judge/judge.ts';
import type { ProblemReport } from '../../harness/judge/outcome.ts';
import type { Problem } from '../../harness/judge/problems.ts';
import { unmetRequirement } from '../../harness/judge/requirements.ts';
import type { InterviewOutcome, InterviewRecord } from '../../harness/learner/interview-record.ts';
import { loadHints } from '../../harness/learner/learning.ts';
import { updateProgress } from '../../harness/learner/progress.ts';
import { RedisStartError } from '../../harness/redis/server.ts';
import { CommandRedis, redisStartLine } from '../../harness/redis/session.ts';
import { formatReport, paintVerdict, VERDICT_LABEL } from '../../harness/terminal/report.ts';
import { WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { shownArg, type IO } from '../lib/cli.ts';
import {
  currentRung,
  dueWarnings,
  endInterview,
  ensureRungFile,
  isOver,
  isUntouchedStub,
  recordAnswer,
  recordHint,
  recordJudgement,
  removeOpen,
  saveOpen,
  toRecord,
  type OpenInterview,
  type RungState,
} from '../lib/interview-state.ts';
import { fromRoot, header, questionLines, scorecard } from '../lib/interview-screen.ts';
import { type InterviewDef, type Question, type RungDef } from '../lib/interviews.ts';
import { type NextLine } from '../lib/lines.ts';
import { hintLines } from './hint.ts';
import { parseAnswer, shuffledOrder } from './quiz.ts';

const letter = (i: number): string => String.fromCharCode(97 + i);

/** One run of the command on one interview. */
export class Run {
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
    /** How reports are shown, as `kata` shows them: --reveal, --verbose. */
    readonly showing: { reveal: boolean; verbose: boolean } = { reveal: false, verbose: false },
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
      this.io.out(formatReport(problem, report, { ...this.showing, style: this.io.style }));
    }
    const passed = recordJudgement(this.state, report, untouched, this.now());
    this.save();
    if (!untouched) {
      const gate = rung.gate.length > 0 ? ` + ${rung.gate.join(', ')}` : '';
      const mark = passed
        ? this.io.style.green('✓ gate passed')
        : this.io.style.yellow('✗ not yet');
      this.io.out(`\n${paintVerdict(report.verdict, this.io.style)}\nGate (core${gate}): ${mark}`);
      if (!passed)
        this.io.out(`${this.io.style.bold('Your file:')} ${fromRoot(rung.file as string)}`);
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

export function keep(record: InterviewRecord, io: IO): void {
  updateProgress(io.err, (progress) => {
    (progress.interviews ??= []).push(record);
  });
}

export const emptyReport = (problem: Problem): ProblemReport => ({
  dir: problem.dir,
  verdict: 'not-started',
  cases: [],
  followUps: { passed: 0, total: 0 },
  output: '',
  ms: 0,
});
