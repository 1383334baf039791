// `npm run grade [problem...] [--dir DIR] [--json] [--reveal]`: judges every problem (or those named)
// and prints a table and a summary; records progress unless grading solutions kept elsewhere.
import { existsSync, lstatSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  judge,
  releaseSlot,
  typeErrorReport,
  type SessionSlot,
} from '../../harness/judge/judge.ts';
import type { ProblemReport } from '../../harness/judge/outcome.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { unmetRequirement, type Unmet } from '../../harness/judge/requirements.ts';
import { typeErrorMessage } from '../../harness/judge/typecheck.ts';
import { RedisStartError } from '../../harness/redis/server.ts';
import { CommandRedis, redisStartUnmet } from '../../harness/redis/session.ts';
import { isShippedStub } from '../../harness/learner/learning.ts';
import { recordReport, updateProgress } from '../../harness/learner/progress.ts';
import { StateError } from '../../harness/learner/state.ts';
import {
  casesPassed,
  formatReport,
  paintVerdict,
  VERDICT_LABEL,
} from '../../harness/terminal/report.ts';
import { escapeControl } from '../../harness/terminal/escape.ts';
import { problemCell } from '../../harness/terminal/problem-cell.ts';
import { drawPicture } from '../../harness/terminal/picture.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import { DEFAULT_WIDTH, fitCell, WIDTH, wrapKeepingCode } from '../../harness/terminal/wrap.ts';
import { parse, resolveProblems, shownArg, USAGE_EXIT, UsageError, type IO } from '../lib/cli.ts';
import { mapConcurrent } from '../lib/pool.ts';

function tableRow(cells: string[], widths: number[]): string {
  return cells
    .map((cell, i) => fitCell(cell, widths[i] as number))
    .join(' ')
    .trimEnd();
}

/** Problem (its id whole, then its title, which may be cut), level, verdict, cases, follow-ups, time. */
const WIDTHS = [33, 6, 21, 5, 5, 5];

/** The time column of a verdict kept from the last grade (see memo.ts); explained under the table. */
const KEPT = 'kept';

/** Marks an accepted verdict reached with hints; explained under the table. */
const HINTED = '*';

/** What the cases, follow-ups and time columns hold for a problem that was not judged. */
const NOT_JUDGED = '—';

type Graded = { problem: Problem; report: ProblemReport };
/** A problem this machine cannot judge (no Redis, say): listed, but neither judged nor recorded. */
type Unjudged = { problem: Problem; unmet: Unmet };
type Row = Graded | Unjudged;

function table(rows: Row[], io: IO, hinted: Set<string>): string[] {
  const header = tableRow(['problem', 'level', 'verdict', 'cases', 'f-ups', 'time'], WIDTHS);
  const lines = [io.style.bold(header)];
  for (const row of rows) {
    const { problem } = row;
    // Padded to its full width: a row's trailing spaces are trimmed, but these come before the verdict.
    const before = `${problemCell(problem, WIDTHS[0] as number)} ${fitCell(problem.difficulty, WIDTHS[1] as number)}`;
    if ('unmet' in row) {
      // Yellow, as Not Started is: nothing failed, there is only something to do.
      const label = fitCell(row.unmet.label, WIDTHS[2] as number);
      const after = tableRow([NOT_JUDGED, NOT_JUDGED, NOT_JUDGED], WIDTHS.slice(3));
      lines.push(`${before} ${io.style.yellow(label)} ${after}`);
      continue;
    }
    const { report } = row;
    const cases = casesPassed(report);
    const mark = report.verdict === 'accepted' && hinted.has(problem.dir) ? HINTED : '';
    const label = VERDICT_LABEL[report.verdict] + mark;
    // Pad the verdict before colouring it, so escape codes do not upset the column widths.
    const verdict =
      paintVerdict(report.verdict, io.style) +
      mark +
      ' '.repeat((WIDTHS[2] as number) - label.length);
    const after = tableRow(
      [
        `${cases.passed}/${cases.total}`,
        `${report.followUps.passed}/${report.followUps.total}`,
        report.reused ? KEPT : `${(report.ms / 1000).toFixed(1)}s`,
      ],
      WIDTHS.slice(3),
    );
    lines.push(`${before} ${verdict} ${after}`);
  }
  return lines;
}

function toJson(rows: Row[]): string {
  return JSON.stringify({
    problems: rows.map((row) => ('unmet' in row ? unjudgedJson(row) : gradedJson(row))),
  });
}

/** The same keys as a judged problem's, nothing in them judged, and the line kata would print. */
function unjudgedJson({ problem, unmet }: Unjudged) {
  return {
    id: problem.id,
    dir: problem.dir,
    title: problem.title,
    verdict: 'unavailable',
    message: unmet.message,
    reused: false,
    followUps: { passed: 0, total: 0 },
    diagnosis: { traps: [] },
    cases: [],
  };
}

function gradedJson({ problem, report }: Graded) {
  return {
    id: problem.id,
    dir: problem.dir,
    title: problem.title,
    verdict: report.verdict,
    reused: report.reused === true,
    followUps: report.followUps,
    // The traps the report leads with, root causes first (empty when nothing failed).
    diagnosis: { traps: report.diagnosis?.traps ?? [] },
    cases: report.cases.map((c) => ({
      name: c.name,
      tier: c.tier,
      trap: c.trap,
      status: c.status,
      ms: c.ms,
      message: c.status === 'passed' ? null : (c.message ?? null),
      // The lead failure's picture, as its lines at 80 columns without colour.
      ...(c.lead && c.picture ? { picture: drawPicture(c.picture, PLAIN, DEFAULT_WIDTH) } : {}),
    })),
  };
}

const PLAIN = makeStyle(false);

export async function grade(argv: string[], io: IO): Promise<number> {
  const { values, positionals } = parse(argv, {
    command: 'grade',
    args: '[problem...]',
    maxArgs: Infinity,
    summary: 'Judges every problem, or those named: a table of verdicts, then a summary.',
    options: {
      dir: {
        type: 'string',
        value: 'DIR',
        help: 'judge DIR/<problem-dir>/solution.ts (records no progress)',
      },
      json: { type: 'boolean', default: false, help: 'print one JSON document, not the table' },
      reveal: {
        type: 'boolean',
        default: false,
        help: 'also the full report of each problem not passed in full',
      },
      fresh: {
        type: 'boolean',
        default: false,
        help: 'judge every file again, also those unchanged since the last grade',
      },
    },
    notes: [
      'A problem is named by its number, slug or folder: 933, number-of-recent-calls.',
      'A file unchanged since the last grade, with the same suite and judge, keeps its verdict ' +
        'without being judged again.',
    ],
    example: 'npm run grade -- 933 362 --reveal',
  });
  const all = loadProblems();
  // A problem named twice (`933 933`, or by number and by slug) is judged once.
  let chosen = positionals.length > 0 ? resolveProblems(all, positionals) : all;
  let fileOf = (problem: Problem): string => problem.stubFile;
  if (values.dir !== undefined) {
    const dir = path.resolve(values.dir);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new UsageError(`--dir ${shownArg(values.dir)} is not a directory`);
    fileOf = (problem) => path.join(dir, problem.dir, 'solution.ts');
    // Anything there counts, a dangling link too: judging it says what is wrong with it.
    chosen = chosen.filter((problem) => lstatSync(fileOf(problem), { throwIfNoEntry: false }));
    if (chosen.length === 0) {
      throw new UsageError(
        `--dir ${shownArg(values.dir)} holds no <problem-dir>/solution.ts (e.g. ${all[0]?.dir}/solution.ts)`,
      );
    }
  }

  const started = performance.now();
  // What this machine cannot judge (a Redis kata without Redis) is listed, not judged, not recorded.
  const unjudged = new Map<Problem, Unmet>();
  for (const problem of chosen) {
    const unmet = unmetRequirement(problem);
    if (unmet) unjudged.set(problem, unmet);
  }
  const judging = chosen.filter((problem) => !unjudged.has(problem));
  // One child process per lane, reused from problem to problem (each gets a fresh vm context).
  const lanes = Math.min(availableParallelism(), judging.length);
  const slots: SessionSlot[] = Array.from({ length: lanes }, () => ({}));
  // Every file's types are checked meanwhile, in turn, by the process's one checker: no lane waits
  // for its cold start. Type errors make a compile error, as on LeetCode.
  const checks = judging.map((problem) =>
    typeErrorMessage(fileOf(problem), { home: path.dirname(problem.stubFile) }),
  );
  // One Redis for the whole grade, started when the first problem that needs it is about to run
  // its cases (never for a grade without one, nor for one whose kept verdicts answer everything),
  // and gone when the grade is over, however it ends.
  const redis = new CommandRedis();
  const judged = await mapConcurrent(judging, lanes, async (problem, lane) => {
    try {
      return await judge({
        problem,
        solutionFile: fileOf(problem),
        slot: slots[lane],
        typeCheck: false,
        memo: { reuse: !values.fresh },
        redis: () => redis.optionsFor(problem),
      });
    } catch (error) {
      if (!(error instanceof RedisStartError)) throw error;
      // Redis is there but cannot be used (it failed to start, or REDIS_URL refuses a confined
      // user): listed apart like a problem without Redis, with the reason.
      unjudged.set(problem, redisStartUnmet(error));
      return undefined;
    }
  }).finally(async () => {
    slots.forEach(releaseSlot);
    await redis.close();
  });
  const typeErrors = await Promise.all(checks);
  const graded: Graded[] = [];
  judging.forEach((problem, i) => {
    const report = judged[i];
    if (report === undefined) return;
    const errors = typeErrors[i];
    graded.push({
      problem,
      report: errors === undefined ? report : typeErrorReport(report, errors),
    });
  });
  // In the order chosen, the problems not judged among the others.
  const reportOf = new Map(graded.map((g) => [g.problem, g.report]));
  const rows: Row[] = chosen.map((problem) => {
    const unmet = unjudged.get(problem);
    return unmet ? { problem, unmet } : { problem, report: reportOf.get(problem) as ProblemReport };
  });

  // Solutions kept elsewhere (--dir) are not the learner's: their hints do not apply.
  const hinted = new Set<string>();
  // Progress that cannot be saved does not hide the verdicts: they are shown, then what went wrong.
  let unsaved: StateError | undefined;
  if (values.dir === undefined && graded.length > 0) {
    // An untouched stub was not attempted: judging it must not stamp a first attempt on it.
    const untouched = new Set(
      graded
        .filter((g) => g.report.verdict === 'not-started' && isShippedStub(g.problem))
        .map((g) => g.problem.dir),
    );
    try {
      updateProgress(io.err, (progress) => {
        const now = new Date();
        for (const { report } of graded) {
          recordReport(progress, report, now, { untouched: untouched.has(report.dir) });
        }
        for (const { problem } of graded) {
          if (progress.problems[problem.dir]?.hintsUsed) hinted.add(problem.dir);
        }
      });
    } catch (error) {
      if (!(error instanceof StateError)) throw error;
      unsaved = error;
    }
  }
  const solved = graded.filter((g) => g.report.verdict === 'accepted').length;
  if (values.json) {
    io.out(toJson(rows));
  } else {
    io.out(table(rows, io, hinted).join('\n'));
    // Once per missing thing, however many problems need it: what is missing and how to get it.
    const notes = new Map([...unjudged.values()].map((unmet) => [unmet.label, unmet.note]));
    for (const [label, note] of notes) {
      const lines = wrapKeepingCode(escapeControl(`${label}: ${note}`), WIDTH, '  ').split('\n');
      io.out(lines.map(io.style.dim).join('\n'));
    }
    const starred = graded.some(
      (g) => g.report.verdict === 'accepted' && hinted.has(g.problem.dir),
    );
    if (starred) io.out(io.style.dim(`${HINTED} solved with hints`));
    const kept = graded.filter((g) => g.report.reused).length;
    if (kept > 0) {
      io.out(
        io.style.dim(
          `${KEPT}: the last grade's verdict (file and judge unchanged); --fresh judges again`,
        ),
      );
    }
    const followUps = graded.reduce((sum, g) => sum + g.report.followUps.passed, 0);
    const followUpsTotal = graded.reduce((sum, g) => sum + g.report.followUps.total, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    // Problems not judged are neither solved nor failed: they are counted apart.
    const notJudged = unjudged.size > 0 ? ` · ${unjudged.size} not judged` : '';
    io.out(
      `\nSolved ${solved}/${graded.length} · follow-ups ${followUps}/${followUpsTotal} · ${seconds} s` +
        notJudged,
    );
    if (values.reveal) {
      for (const { problem, report } of graded) {
        if (report.verdict !== 'accepted' || report.followUps.passed < report.followUps.total) {
          io.out(`\n${formatReport(problem, report, { reveal: true, style: io.style })}`);
        }
      }
    } else if (solved < graded.length) {
      io.out(
        io.style.dim(
          'Details: npm run kata <problem> (add -- --reveal to see hidden failing cases).',
        ),
      );
    }
  }
  if (unsaved) throw unsaved;
  // Nothing could be judged at all: not a success, and not the learner's failure either.
  if (graded.length === 0) return USAGE_EXIT;
  return solved === graded.length ? 0 : 1;
}
