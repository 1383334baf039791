// The edges of the one careful read (harness/read-file.ts) that the safety tests do not reach: a
// file that grows between its size check and its read, and the one-line reasons for failures other
// than a missing file (a name too long, a file the process may not read).
import * as nodeFs from 'node:fs';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readOpened, readText, sizeText } from '../../harness/read-file.ts';
import { scratchDir } from '../helpers.ts';

/** Node's fs, except that the opened file claims `claimed` bytes and then reads as `actual`. */
function growingFs(claimed: number, actual: Buffer): typeof nodeFs {
  let offset = 0;
  return {
    ...nodeFs,
    fstatSync: ((fd: number) => {
      const stats = nodeFs.fstatSync(fd);
      return Object.assign(stats, { size: claimed });
    }) as typeof nodeFs.fstatSync,
    readSync: ((_fd: number, buffer: Buffer, at: number, length: number) => {
      const n = actual.copy(buffer, at, offset, offset + length);
      offset += n;
      return n;
    }) as typeof nodeFs.readSync,
  };
}

describe('readOpened', () => {
  const file = path.join(scratchDir('read-file'), 'grows.ts');
  writeFileSync(file, 'x');

  test('a file at the limit that grew after its size was checked is still refused', () => {
    const opened = readOpened(growingFs(10, Buffer.alloc(50, 'a')), file, 10);
    // It reads one byte past the limit and stops there: never the whole runaway file.
    expect(opened).toEqual({ kind: 'too-big', bytes: 11 });
  });

  test('a file that grew after its size was checked, and stays within the limit, is read whole', () => {
    const opened = readOpened(growingFs(5, Buffer.alloc(50, 'a')), file, 100);
    expect(opened.kind === 'bytes' && opened.data.length).toBe(50);
  });

  test('a file that shrank is read as it now is', () => {
    const opened = readOpened(growingFs(8, Buffer.from('ab')), file, 10);
    expect(opened.kind === 'bytes' && opened.data.toString()).toBe('ab');
  });
});

describe('readText failures', () => {
  test('a name too long to open is one line naming the error code', () => {
    const file = path.join(scratchDir('read-file'), 'n'.repeat(300));
    const read = readText(file, 1024);
    expect(read).toEqual({ ok: false, message: `${file} cannot be read (ENAMETOOLONG)` });
  });

  // Root reads any file whatever its mode: the permission check only means something for others.
  test.skipIf(process.getuid?.() === 0)('a file without read permission says so', () => {
    const file = path.join(scratchDir('read-file'), 'secret.ts');
    writeFileSync(file, 'x');
    chmodSync(file, 0o000);
    expect(readText(file, 1024)).toEqual({
      ok: false,
      message: `${file} cannot be read: permission denied`,
    });
  });

  test('a too-large file names its size, the limit and what it was meant to be', () => {
    const file = path.join(scratchDir('read-file'), 'big.ts');
    writeFileSync(file, Buffer.alloc(3000, 'a'));
    expect(readText(file, 2048, 'a hint file')).toEqual({
      ok: false,
      message: `${file} is 2.9 kB: more than the 2 kB a hint file can be`,
    });
  });
});

describe('sizeText', () => {
  test('uses the largest unit that keeps the number at least 1, to one decimal', () => {
    expect(sizeText(512)).toBe('512 bytes');
    expect(sizeText(1536)).toBe('1.5 kB');
    expect(sizeText(10 * 1024 * 1024)).toBe('10 MB');
    expect(sizeText(3 * 1024 ** 3 + 1024 ** 3 / 2)).toBe('3.5 GB');
  });
});
