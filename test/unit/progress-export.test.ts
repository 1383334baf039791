// `progress --export` counts the problems of this ladder only: a record may also hold folders that
// have gone since (renamed, removed), and those travel along in the file without being counted.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, expect, test, vi } from 'vitest';

const previousStateDir = vi.hoisted(() => {
  // A state folder of its own: other test files record progress at the same time.
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previous = process.env.KATA_STATE_DIR;
  process.env.KATA_STATE_DIR = fs.mkdtempSync(`${os.tmpdir()}/window-katas-export-state-`);
  return previous;
});

import { loadProblems } from '../../harness/judge/problems.ts';
import {
  emptyProgress,
  entryFor,
  loadProgress,
  PROGRESS_FILE,
  saveProgress,
} from '../../harness/learner/progress.ts';
import { progress } from '../../scripts/commands/progress.ts';
import { runCommand } from '../../scripts/lib/cli.ts';
import { captureIO, scratchDir } from '../helpers.ts';

afterAll(() => {
  process.env.KATA_STATE_DIR = previousStateDir;
});

beforeEach(() => {
  expect(PROGRESS_FILE).toMatch(/window-katas-export-state-/);
  rmSync(PROGRESS_FILE, { force: true });
});

const [first, second] = loadProblems();

function record(dirs: string[]): void {
  const saved = emptyProgress();
  for (const dir of dirs) entryFor(saved, dir).attempts = 1;
  saveProgress(saved);
}

async function exportTo(file: string) {
  const io = captureIO();
  const code = await runCommand((io) => progress(['--export', file], io), io);
  return { code, io };
}

test('only problems of this ladder are counted; the others are kept, and said to be', async () => {
  record([first!.dir, 'old-problem', second!.dir, 'renamed-since']);
  const file = path.join(scratchDir('export'), 'mine.json');
  const { code, io } = await exportTo(file);
  expect(code).toBe(0);
  expect(io.stdout[0]).toBe(`Exported the progress on 2 problems to ${file}`);
  expect(io.stdout[1]).toBe('It also keeps what was recorded of 2 problems not in this ladder.');
  expect(io.stdout[2]).toMatch(/^Bring it in elsewhere with: npm run progress -- --import /);
  // Nothing recorded is lost on the way.
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(loadProgress(() => {}));
});

test('a record of gone problems only exports 0 problems, and one of them is "a problem"', async () => {
  record(['old-problem']);
  const { io } = await exportTo(path.join(scratchDir('export'), 'gone.json'));
  expect(io.stdout[0]).toMatch(/^Exported the progress on 0 problems to /);
  expect(io.stdout[1]).toBe('It also keeps what was recorded of a problem not in this ladder.');
});

test('with every problem in the ladder, nothing more is said', async () => {
  record([first!.dir]);
  const { io } = await exportTo(path.join(scratchDir('export'), 'one.json'));
  expect(io.stdout[0]).toMatch(/^Exported the progress on 1 problem to /);
  expect(io.stdout[1]).toMatch(/^Bring it in elsewhere with: /);
});
