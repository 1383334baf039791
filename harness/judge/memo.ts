// Verdicts remembered by everything that decides them, so that `npm run grade` judges again only
// what changed since the last grade: the learner's code, the problem's suite, reference and known
// mistakes, the judge, or Node. Verdicts do not depend on the machine's load (time limits count CPU
// time with ten times the reference's worst; see CONTRIBUTING.md "Speed"), so a remembered one is
// the one a new judgement would give. Kept beside the compiled bundles, each checked against its
// hash.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import type { ProblemReport } from './outcome.ts';
import { readVerified, sha256, writeVerified } from './verified-file.ts';
import { SCRATCH_DIR } from '../paths.ts';
import { readRegularFile } from '../read-file.ts';

/** Change when a report's shape or meaning changes: older memos then no longer match. */
const MEMO_VERSION = 'memo-1';
/** Read when used, not on import: tests that stand in for paths.ts need not know of it. */
const memoDir = (): string => path.join(SCRATCH_DIR, 'verdicts');
/** Memos not used for this long are removed when a new one is written. */
const FORGET_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

/** What a judgement depends on: the bundles are named by fingerprints of every harness file. */
export interface MemoInputs {
  workerBundle: string;
  runnerBundle: string;
  learnerFile: string;
  learnerCode: string;
  libraries: string[];
  className: string;
}

/** A hash's hex digits, with room to spare: a larger `.sum` is no hash of the judge's. */
const MAX_SUM_BYTES = 128;

/** The hash a bundle was written with (see writeVerified), or undefined if it has none. */
function contentHash(bundle: string): string | undefined {
  try {
    const read = readRegularFile(`${bundle}.sum`, MAX_SUM_BYTES);
    return read.kind === 'text' ? read.text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The key of a judgement: a bundle's file name follows the modification times of the files it was
 * built from (every harness file among them, the parent's judging code too), its hash its content.
 */
export function memoKey(inputs: MemoInputs): string | undefined {
  const workerSum = contentHash(inputs.workerBundle);
  const runnerSum = contentHash(inputs.runnerBundle);
  if (workerSum === undefined || runnerSum === undefined) return undefined;
  return sha256(
    JSON.stringify([
      MEMO_VERSION,
      process.version,
      process.arch,
      inputs.workerBundle,
      workerSum,
      inputs.runnerBundle,
      runnerSum,
      inputs.learnerFile,
      sha256(inputs.learnerCode),
      inputs.libraries.map((library) => sha256(library)),
      inputs.className,
    ]),
  );
}

const memoFile = (key: string): string => path.join(memoDir(), `${key.slice(0, 32)}.json`);

/** The report remembered under this key, marked as reused; undefined when there is none. */
export function recall(key: string): ProblemReport | undefined {
  const file = memoFile(key);
  const text = readVerified(file);
  if (text === undefined) return undefined;
  try {
    const stored = JSON.parse(text) as { key?: unknown; report?: ProblemReport };
    if (stored.key !== key || stored.report === undefined) return undefined;
    const now = new Date();
    for (const used of [file, `${file}.sum`]) utimesSync(used, now, now); // kept a while longer
    return { ...stored.report, reused: true };
  } catch {
    return undefined;
  }
}

/**
 * Remembers a finished judgement (never a cancelled one: nothing in it is decided). A memo is only
 * a shortcut: when it cannot be written, the judgement stands and is simply judged again next time.
 */
export function remember(key: string, report: ProblemReport): void {
  if (report.cancelled) return;
  const fresh: ProblemReport = { ...report };
  delete fresh.reused;
  try {
    makeMemoDir();
    writeVerified(memoFile(key), JSON.stringify({ key, report: fresh }));
    forgetOld();
  } catch {
    // not remembered: see above
  }
}

/** The memo folder, made; something else in its place (a file) is moved aside first. */
function makeMemoDir(): void {
  const dir = memoDir();
  try {
    if (statSync(dir).isDirectory()) return;
    renameSync(dir, `${dir}.moved-aside-${Date.now()}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dir, { recursive: true });
}

function forgetOld(): void {
  for (const name of readdirSync(memoDir())) {
    const file = path.join(memoDir(), name);
    try {
      if (Date.now() - statSync(file).mtimeMs > FORGET_AFTER_MS) rmSync(file, { force: true });
    } catch {
      // gone already
    }
  }
}
