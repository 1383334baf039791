// The checker's answers, kept by content between processes, so that a file checked before costs no
// TypeScript at all.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, SCRATCH_DIR } from '../../paths.ts';
import { readRegularFile } from '../../read-file.ts';
import type { CheckAnswer, TypeDiagnostic } from './server.ts';
import { checkerSetup } from './setup.ts';
import { readVerified, sha256, writeVerified } from '../verified-file.ts';

/**
 * Answers are kept by content in node_modules/.cache (as bundles are): the learner's text, where it
 * is, the checker's setup and the lock file's packages make the key, and the other files the
 * program read (the contract, the globals) are checked against their hashes when an answer is
 * reused. So a grade of files checked before starts no TypeScript at all.
 */
const ANSWERS_DIR = path.join(SCRATCH_DIR, 'typecheck');
/** Change when what an answer holds changes. */
const ANSWER_FORMAT = 1;

/** The lock file and the files a solution imports are far smaller; a larger one is not hashed. */
const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** The hash of a file's text; undefined when it is not a regular file of a sane size (a pipe). */
function fileHash(file: string): string | undefined {
  try {
    const read = readRegularFile(file, MAX_INPUT_BYTES);
    return read.kind === 'text' ? sha256(read.text) : undefined;
  } catch {
    return undefined;
  }
}

let setupKey: string | undefined;
/** What every answer of this checkout depends on besides the file: options, declarations, packages. */
function checkerKey(): string {
  setupKey ??= sha256(
    JSON.stringify([
      ANSWER_FORMAT,
      checkerSetup('', false),
      fileHash(path.join(REPO_ROOT, 'package-lock.json')) ?? '',
    ]),
  );
  return setupKey;
}

interface KeptAnswer {
  errors: Omit<TypeDiagnostic, 'file'>[];
  inputs: Array<[file: string, hash: string]>;
}

export function answerFile(file: string, text: string, home: string | undefined): string {
  const key = sha256(`${checkerKey()}\0${path.resolve(file)}\0${home ?? ''}\0${text}`);
  return path.join(ANSWERS_DIR, `${key.slice(0, 32)}.json`);
}

export function keptAnswer(where: string): KeptAnswer['errors'] | undefined {
  const text = readVerified(where);
  if (text === undefined) return undefined;
  try {
    const kept = JSON.parse(text) as KeptAnswer;
    return kept.inputs.every(([file, hash]) => fileHash(file) === hash) ? kept.errors : undefined;
  } catch {
    return undefined;
  }
}

export function keepAnswer(where: string, answer: CheckAnswer): void {
  if (answer.unkept) return;
  const inputs: KeptAnswer['inputs'] = [];
  for (const file of answer.inputs) {
    const hash = fileHash(file);
    if (hash === undefined) return; // gone already: nothing worth keeping
    inputs.push([file, hash]);
  }
  try {
    mkdirSync(ANSWERS_DIR, { recursive: true });
    writeVerified(where, JSON.stringify({ errors: answer.errors, inputs } satisfies KeptAnswer));
  } catch {
    // a cache that cannot be written costs only time
  }
}
