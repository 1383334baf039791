// Files the judge writes and later trusts (bundles, verdict memos, type-check answers), each written
// whole with a keyed seal beside it and read back only while the seal still matches: a file changed
// by anyone without the key, the learner's code in the child included, is not trusted.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SCRATCH_DIR } from '../paths.ts';
import { readRegularFile } from '../read-file.ts';

/** No file the judge caches comes near this (a bundle is well under a megabyte): one that does is not its. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;
/** A hash's hex digits, with room to spare. */
const MAX_SUM_BYTES = 128;

let counter = 0;

/** A file's or a text's SHA-256, in hex: what caches are keyed by. */
export const sha256 = (data: string | Buffer): string =>
  createHash('sha256').update(data).digest('hex');

/**
 * The key of the seals beside cached files (bundles, verdict memos). It lives outside the scratch
 * folder, where the child that runs learner code cannot read it (see child-sandbox.ts): a file
 * rewritten with its seal recomputed, by anyone without the key, is not trusted.
 */
export const SEAL_KEY_FILE = path.join(path.dirname(SCRATCH_DIR), 'kata-seal.key');
const SEAL_KEY_BYTES = 32;
let sealKey: Buffer | undefined;

/** The key, made on first use; two processes making it at once agree on the first one written. */
function sealingKey(): Buffer {
  if (sealKey !== undefined) return sealKey;
  try {
    const stored = readFileSync(SEAL_KEY_FILE);
    if (stored.length >= SEAL_KEY_BYTES) return (sealKey = stored);
  } catch {
    // not made yet
  }
  mkdirSync(path.dirname(SEAL_KEY_FILE), { recursive: true });
  const temp = `${SEAL_KEY_FILE}.${process.pid}.${(counter += 1)}.tmp`;
  writeFileSync(temp, randomBytes(SEAL_KEY_BYTES), { mode: 0o600 });
  try {
    // A link appears whole, and fails if the key exists: then that one is the key.
    linkSync(temp, SEAL_KEY_FILE);
  } catch {
    const stored = readFileSync(SEAL_KEY_FILE);
    // A key cut short (by hand): replaced, and everything sealed with it is built again.
    if (stored.length < SEAL_KEY_BYTES) renameSync(temp, SEAL_KEY_FILE);
  } finally {
    rmSync(temp, { force: true });
  }
  sealKey = readFileSync(SEAL_KEY_FILE);
  return sealKey;
}

/** A keyed hash of `data`: only who holds the key can make one that matches. */
const seal = (data: string): string =>
  createHmac('sha256', sealingKey()).update(data).digest('hex');

/** Writes a file whole (rename), with its seal beside it. */
export function writeVerified(file: string, contents: string): void {
  const temp = `${file}.${process.pid}.${(counter += 1)}.tmp`;
  writeFileSync(temp, contents);
  writeFileSync(`${temp}.sum`, seal(contents));
  renameSync(`${temp}.sum`, `${file}.sum`);
  renameSync(temp, file);
}

/** The file's contents if they still match the seal written with them; else undefined. */
export function readVerified(file: string): string | undefined {
  try {
    const contents = readRegularFile(file, MAX_CACHED_BYTES);
    const sum = readRegularFile(`${file}.sum`, MAX_SUM_BYTES);
    if (contents.kind !== 'text' || sum.kind !== 'text') return undefined;
    return sum.text === seal(contents.text) ? contents.text : undefined;
  } catch {
    return undefined;
  }
}
