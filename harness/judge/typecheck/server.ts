// The type checker's program: one TypeScript language service answering checks, and the loader
// that keeps V8's compiled code of TypeScript between processes. Both run from their own source text
// (in a worker thread, or in a process started from the snapshot, see snapshot.ts), so nothing in
// them uses anything from outside itself; this file imports only read-file.ts, whose readOpened is
// passed in as text too.
import { readOpened } from '../../read-file.ts';

export interface TypeDiagnostic {
  /** The file as given. */
  file: string;
  /** From 1, as editors count. */
  line: number;
  column: number;
  /** TypeScript's number for the error (TS2322). */
  code: number;
  /** TypeScript's own text; the lines of a chain of reasons are indented under the first. */
  message: string;
  /** The source line the error is on. */
  lineText: string;
}

export interface Setup {
  typescript: string;
  root: string;
  globalsFile: string;
  /** The names GLOBALS_FILE declares: a file that names none of them is checked without it. */
  globalNames: string[];
  realmDeclarations: string;
  options: Record<string, unknown>;
  /** Lower the worker thread's priority (Linux only: elsewhere it would be the whole process's). */
  yieldCpu: boolean;
  /** Where V8's compiled code of TypeScript is kept between processes (see codeCachedLoader). */
  codeCache: string;
}

export interface CheckRequest {
  id: number;
  file: string;
  /** The file's text as the judge read it: the answer is about exactly this text. */
  text: string;
  home: string | undefined;
}

export interface CheckAnswer {
  errors: Omit<TypeDiagnostic, 'file'>[];
  /** The program's other files outside node_modules (the contract, the globals): the answer rests on them too. */
  inputs: string[];
  /** TypeScript crashed: no errors are reported, and the answer is not one to keep. */
  unkept?: true;
}

export type CheckReply = ({ id: number } & CheckAnswer) | { id: number; unavailable: string };

export interface MessagePortLike {
  on(event: 'message', listener: (request: CheckRequest) => void): void;
  postMessage(reply: CheckReply): void;
}

/**
 * The worker's program. It runs from its own source text (a worker is given code, not this module),
 * so it uses nothing from outside itself: what it needs comes through `load`, `setup` and `read`.
 * (Exported for the tests, which also run it in their own thread.)
 */
export function serveTypeChecks(
  port: MessagePortLike,
  load: (id: string) => unknown,
  setup: Setup,
  afterFirstCheck: () => void = () => {},
  /** Parsed files kept from an earlier language service (snapshot.ts's warm-up). */
  registry?: unknown,
  /**
   * read-file.ts's readOpened, run from its text (see CHECKER_SOURCE): every file the program
   * reads besides the learner's (a `/// <reference path>` may name a pipe or /dev/zero) is read
   * only if it is a regular file of a sane size. Without it (a test's own checker), TypeScript's.
   */
  read?: typeof readOpened,
): void {
  let ts: typeof import('typescript');
  try {
    ts = load(setup.typescript) as typeof import('typescript');
  } catch (error) {
    const why = String(error);
    port.on('message', (request) => port.postMessage({ id: request.id, unavailable: why }));
    return;
  }
  if (setup.yieldCpu) {
    try {
      // The judge's own work comes first: cases are timed, a check is not.
      (load('node:os') as typeof import('node:os')).setPriority(10);
    } catch {
      // not allowed here: run as we are
    }
  }
  const fs = load('node:fs') as typeof import('node:fs');
  const nodePath = load('node:path') as typeof import('node:path');
  const hash = (load('node:crypto') as typeof import('node:crypto')).createHash;
  const options = ts.convertCompilerOptionsFromJson(setup.options, setup.root).options;
  /** TypeScript's own libraries are the largest files it reads, a few megabytes at most. */
  const maxRead = 32 * 1024 * 1024;
  /** A file's text, decoded as TypeScript decodes it (by its byte order mark); else undefined. */
  const readText = (file: string): string | undefined => {
    if (read === undefined) return ts.sys.readFile(file);
    let opened: ReturnType<typeof readOpened>;
    try {
      opened = read(fs, file, maxRead);
    } catch {
      return undefined;
    }
    if (opened.kind !== 'bytes') return undefined;
    const data = opened.data;
    if (data[0] === 0xfe && data[1] === 0xff) {
      return Buffer.from(data.subarray(2, data.length - (data.length % 2)))
        .swap16()
        .toString('utf16le');
    }
    if (data[0] === 0xff && data[1] === 0xfe) return data.toString('utf16le', 2);
    if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return data.toString('utf8', 3);
    return data.toString('utf8');
  };
  // The file being checked is the one root beside the globals (learner files are often scripts,
  // whose declarations are global: two in one program would clash), under a name that never
  // changes: TypeScript then keeps the rest of the program (libraries, their imports resolved) from
  // one check to the next, whichever file it is. Its imports resolve from where the file really is.
  // (A name only: nothing is written there.)
  const slot = `${setup.root}/.typecheck/solution.ts`;
  const realm = `${setup.root}/.typecheck/realm.d.ts`;
  const virtual = new Map([[realm, setup.realmDeclarations]]);
  // The libraries' declarations are most of what a cold start parses: they come in only for a
  // file that names one of their globals (anywhere, even in a comment), as their code does.
  const namesGlobal = new RegExp(`(?<![\\w$])(?:${setup.globalNames.join('|')})(?![\\w$])`);
  let withGlobals = false;
  let learner = '';
  let learnerText = '';
  let learnerVersion = '';
  // Where the file would sit as the learner's own (the problem's folder): a relative import that
  // does not resolve from a copy kept elsewhere is resolved from there.
  let home: string | undefined;
  const versions = new Map<string, string>();
  const cache = ts.createModuleResolutionCache(setup.root, (name) => name, options);
  const host: import('typescript').LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [
      realm,
      ...(withGlobals ? [setup.globalsFile] : []),
      ...(learner ? [slot] : []),
    ],
    getScriptVersion: (file) => {
      if (file === slot) return learnerVersion;
      if (virtual.has(file)) return '1';
      let version = versions.get(file);
      if (version === undefined) {
        try {
          const stat = fs.statSync(file);
          version = `${stat.mtimeMs}:${stat.size}`;
        } catch {
          version = 'missing';
        }
        // Packages (TypeScript's libraries, lodash's types) do not change under a process; the
        // few other files a learner's file imports may, and are looked at again on every check.
        if (file.includes('/node_modules/')) versions.set(file, version);
      }
      return version;
    },
    getScriptSnapshot: (file) => {
      const text = file === slot ? learnerText : (virtual.get(file) ?? readText(file));
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => setup.root,
    getDefaultLibFileName: (compilerOptions) => ts.getDefaultLibFilePath(compilerOptions),
    fileExists: (file) => file === slot || virtual.has(file) || ts.sys.fileExists(file),
    readFile: (file) => (file === slot ? learnerText : (virtual.get(file) ?? readText(file))),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
    resolveModuleNameLiterals: (
      literals,
      containingFile,
      redirected,
      compilerOptions,
      sourceFile,
    ) =>
      literals.map((literal) => {
        const mode = ts.getModeForUsageLocation(sourceFile, literal, compilerOptions);
        const resolve = (
          from: string,
        ): import('typescript').ResolvedModuleWithFailedLookupLocations =>
          ts.resolveModuleName(literal.text, from, compilerOptions, host, cache, redirected, mode);
        if (containingFile !== slot) return resolve(containingFile);
        const found = resolve(learner);
        if (found.resolvedModule || !home) return found;
        const fromHome = resolve(nodePath.join(home, nodePath.basename(learner)));
        return fromHome.resolvedModule ? fromHome : found;
      }),
  };
  const service = ts.createLanguageService(
    host,
    (registry as import('typescript').DocumentRegistry | undefined) ?? ts.createDocumentRegistry(),
  );

  const inputsOf = (): string[] =>
    (service.getProgram()?.getSourceFiles() ?? [])
      .map((source) => source.fileName)
      .filter((name) => name !== slot && !virtual.has(name) && !name.includes('/node_modules/'));
  const check = (request: CheckRequest): CheckAnswer => {
    const text = request.text;
    learner = nodePath.resolve(request.file).split(nodePath.sep).join('/');
    learnerText = text;
    home = request.home;
    withGlobals = namesGlobal.test(text);
    // Where it is counts too: its imports resolve from there.
    learnerVersion = hash('sha1').update(`${learner}\0${home}\0${text}`).digest('hex');
    const lines = text.split(/\r?\n/);
    const errors = [
      ...service.getSyntacticDiagnostics(slot),
      ...service.getSemanticDiagnostics(slot),
    ]
      .filter(
        (d) =>
          d.category === ts.DiagnosticCategory.Error &&
          d.file?.fileName === slot &&
          d.start !== undefined,
      )
      .map((d) => {
        const at = (d.file as import('typescript').SourceFile).getLineAndCharacterOfPosition(
          d.start as number,
        );
        return {
          line: at.line + 1,
          column: at.character + 1,
          code: d.code,
          message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
          lineText: lines[at.line] ?? '',
        };
      });
    return { errors, inputs: inputsOf() };
  };
  const checkSafely = (request: CheckRequest): CheckAnswer => {
    try {
      return check(request);
    } catch {
      // A crash inside TypeScript is no reason to refuse the learner's code.
      return { errors: [], inputs: [], unkept: true };
    }
  };
  let checked = false;
  port.on('message', (request) => {
    const answer = checkSafely(request);
    // Before the answer, which may be the last thing this process waits for.
    if (!checked) afterFirstCheck();
    checked = true;
    port.postMessage({ id: request.id, ...answer });
  });
}

/**
 * A `require` for the worker that loads TypeScript with V8's compiled code from an earlier process:
 * compiling typescript.js (9 MB) is most of a cold start's first ~0.4 s. The code is saved once a
 * check has run, so that it holds the parser and checker functions compiled lazily too. V8 refuses
 * code it did not make for this source, version and flags; the file's hash guards it on disk. Like
 * serveTypeChecks, it runs from its own text and uses nothing from outside itself.
 */
export function codeCachedLoader(
  load: NodeJS.Require,
  setup: Pick<Setup, 'typescript' | 'codeCache'>,
): { load: (id: string) => unknown; save: () => void } {
  const fs = load('node:fs') as typeof import('node:fs');
  const vm = load('node:vm') as typeof import('node:vm');
  const { Module, createRequire } = load('node:module') as typeof import('node:module') & {
    Module: { wrap(source: string): string };
  };
  const crypto = load('node:crypto') as typeof import('node:crypto');
  const digest = (data: Buffer): string => crypto.createHash('sha256').update(data).digest('hex');
  let script: import('node:vm').Script | undefined;
  let reused = false;
  const cached = (): Buffer | undefined => {
    try {
      const data = fs.readFileSync(setup.codeCache);
      return fs.readFileSync(`${setup.codeCache}.sum`, 'utf8') === digest(data) ? data : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    load: (id) => {
      if (id !== setup.typescript) return load(id);
      const cachedData = cached();
      script = new vm.Script(Module.wrap(fs.readFileSync(id, 'utf8')), {
        filename: id,
        cachedData,
      });
      reused = cachedData !== undefined && !script.cachedDataRejected;
      const module = { exports: {} as unknown };
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(
        module.exports,
        module.exports,
        createRequire(id),
        module,
        id,
        id.slice(0, id.lastIndexOf('/')),
      );
      return module.exports;
    },
    save: () => {
      if (script === undefined || reused) return;
      try {
        const data = script.createCachedData();
        const temp = `${setup.codeCache}.${process.pid}.tmp`;
        fs.writeFileSync(temp, data);
        fs.writeFileSync(`${temp}.sum`, digest(data));
        fs.renameSync(`${temp}.sum`, `${setup.codeCache}.sum`);
        fs.renameSync(temp, setup.codeCache);
      } catch {
        // Not saved: the next start compiles TypeScript again, as it would without a cache.
      }
    },
  };
}

/**
 * The checker's program as source text (see serveTypeChecks), with the one safe way to read a file
 * passed in: a function of serveTypeChecks' first five parameters, which the worker and the
 * snapshot run.
 */
export const CHECKER_SOURCE =
  `((read) => (port, load, setup, afterFirstCheck, registry) =>\n` +
  `  (${serveTypeChecks.toString()})(port, load, setup, afterFirstCheck, registry, read))` +
  `(${readOpened.toString()})`;
