// Runs before each test file, in its own process: commands run in-process record progress in a
// state folder of that file's own, never the developer's .kata/, and never one that a test file
// running at the same time (vitest.config.ts: three at once on two cores) empties or rewrites.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.KATA_STATE_DIR = mkdtempSync(path.join(tmpdir(), 'window-katas-state-'));
