// Where things live. The judge finds problems by folder, never by name.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PROBLEMS_DIR = path.join(REPO_ROOT, 'problems');
export const SOLUTIONS_DIR = path.join(REPO_ROOT, 'solutions');
/** The learner's own state: progress, backups. Ignored by git; tests point it elsewhere. */
export const STATE_DIR = process.env.KATA_STATE_DIR
  ? path.resolve(process.env.KATA_STATE_DIR)
  : path.join(REPO_ROOT, '.kata');
