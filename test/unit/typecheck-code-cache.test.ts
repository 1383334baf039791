// TypeScript's compiled code kept between checker starts (codeCachedLoader in typecheck/server.ts): used
// when V8 takes it, rewritten when it does not, ignored when its file does not match its hash. Each
// load runs in a thread of its own, as the checker does: a thread's V8 has compiled nothing yet.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { codeCachedLoader } from '../../harness/judge/typecheck/server.ts';
import { scratchDir } from '../helpers.ts';

const typescript = createRequire(import.meta.url).resolve('typescript');
const sha = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Loads TypeScript through the cache in a fresh thread, saves, and gives TypeScript's version. */
function loadInThread(codeCache: string): Promise<string> {
  const code =
    `const { parentPort, workerData } = require('node:worker_threads');\n` +
    `const __name = (target, value) => Object.defineProperty(target, 'name', { value, configurable: true });\n` +
    `const loader = (${codeCachedLoader.toString()})(require, workerData);\n` +
    `const ts = loader.load(workerData.typescript);\n` +
    `ts.createSourceFile('a.ts', 'let x: number = 1', 99);\n` +
    `loader.save();\n` +
    `parentPort.postMessage(ts.version);\n`;
  const worker = new Worker(code, { eval: true, workerData: { typescript, codeCache } });
  return new Promise((resolve, reject) => {
    worker.once('message', (version: string) => {
      resolve(version);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

const mtime = (file: string): number => statSync(file).mtimeMs;

describe('codeCachedLoader', () => {
  test('saves V8 code once, with its hash; a later start uses it and writes nothing', async () => {
    const codeCache = path.join(scratchDir('ts-cache'), 'typescript.v8cache');
    expect(await loadInThread(codeCache)).toMatch(/^\d+\.\d+/);
    const saved = readFileSync(codeCache);
    expect(saved.length).toBeGreaterThan(100_000);
    expect(readFileSync(`${codeCache}.sum`, 'utf8')).toBe(sha(saved));
    const written = mtime(codeCache);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await loadInThread(codeCache)).toMatch(/^\d+\.\d+/);
    expect(mtime(codeCache)).toBe(written);
  });

  test('a cache that does not match its hash, or that V8 refuses, is replaced', async () => {
    const codeCache = path.join(scratchDir('ts-cache'), 'typescript.v8cache');
    writeFileSync(codeCache, 'not V8 code');
    writeFileSync(`${codeCache}.sum`, 'wrong hash');
    expect(await loadInThread(codeCache)).toMatch(/^\d+\.\d+/);
    expect(readFileSync(codeCache).length).toBeGreaterThan(100_000);

    const garbage = Buffer.from('garbage that hashes right');
    writeFileSync(codeCache, garbage);
    writeFileSync(`${codeCache}.sum`, sha(garbage));
    expect(await loadInThread(codeCache)).toMatch(/^\d+\.\d+/);
    expect(readFileSync(codeCache).length).toBeGreaterThan(100_000);
  });

  test('a folder that cannot be written leaves TypeScript working, uncached', async () => {
    const codeCache = path.join(scratchDir('ts-cache'), 'missing-folder', 'typescript.v8cache');
    expect(await loadInThread(codeCache)).toMatch(/^\d+\.\d+/);
    expect(existsSync(codeCache)).toBe(false);
  });
});
