// The mock interviews, read from interviews/<name>.json: a title, a time budget and ordered rungs.
// A coding rung names a kata and its gate (the follow-up traps its question is about, besides the
// core cases); a discussion rung asks multiple-choice questions, written in the file or taken from a
// kata's quiz. A coding rung on a kata that needs more than Node (Redis) says what to ask instead
// (`without`) on a machine that lacks it. Checked as read: a bad file is the repository's fault,
// and says which file and what is wrong.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { findProblem, loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { loadQuiz, type QuizQuestion } from '../../harness/learner/learning.ts';
import { REPO_ROOT } from '../../harness/paths.ts';

const INTERVIEWS_DIR = path.join(REPO_ROOT, 'interviews');

/** A question and the kata whose quiz it comes from, if any (what to practise when it is missed). */
export interface Question extends QuizQuestion {
  from: Problem | null;
}

export interface CodeRungDef {
  kind: 'code';
  id: string;
  /** What the interviewer says: one or two sentences. */
  ask: string;
  problem: Problem;
  gate: string[];
  /** Asked instead when this machine cannot judge the kata (no Redis). */
  without: Question[];
}

export interface DiscussionRungDef {
  kind: 'discussion';
  id: string;
  ask: string;
  questions: Question[];
}

export type RungDef = CodeRungDef | DiscussionRungDef;

export interface InterviewDef {
  name: string;
  title: string;
  budgetMs: number;
  rungs: RungDef[];
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Most choices a discussion question may have: `s` and `e` must stay free as keys. */
const MAX_CHOICES = 4;

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function question(raw: unknown, problems: Problem[], where: string): Question {
  if (isObject(raw) && typeof raw.quiz === 'string') {
    const from = findProblem(problems, raw.quiz);
    if (!from) throw new Error(`${where}: no kata "${raw.quiz}" to take a quiz question from`);
    const picked = loadQuiz(from)[Number(raw.index)];
    if (!picked)
      throw new Error(`${where}: ${from.id}'s quiz has no question ${String(raw.index)}`);
    return { ...picked, from };
  }
  const q = raw as Partial<QuizQuestion>;
  const valid =
    isObject(raw) &&
    isText(q.question) &&
    isText(q.why) &&
    Array.isArray(q.choices) &&
    q.choices.length >= 2 &&
    q.choices.every(isText) &&
    Number.isInteger(q.answer) &&
    (q.answer as number) >= 0 &&
    (q.answer as number) < q.choices.length;
  if (!valid) throw new Error(`${where}: a question needs question, choices, answer and why`);
  return { ...(raw as unknown as QuizQuestion), from: null };
}

function questions(raw: unknown, problems: Problem[], where: string): Question[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new Error(`${where}: needs questions`);
  const list = raw.map((q, i) => question(q, problems, `${where} question ${i + 1}`));
  if (list.some((q) => q.choices.length > MAX_CHOICES)) {
    throw new Error(`${where}: a question may have at most ${MAX_CHOICES} choices`);
  }
  return list;
}

function rung(raw: unknown, problems: Problem[], where: string): RungDef {
  if (!isObject(raw) || !isText(raw.id) || !isText(raw.ask)) {
    throw new Error(`${where}: a rung needs an id and what the interviewer asks (ask)`);
  }
  const base = { id: raw.id, ask: raw.ask };
  if (raw.kata === undefined) {
    return { kind: 'discussion', ...base, questions: questions(raw.questions, problems, where) };
  }
  const problem = findProblem(problems, String(raw.kata));
  if (!problem) throw new Error(`${where}: no kata "${String(raw.kata)}"`);
  const gate = raw.gate ?? [];
  if (!Array.isArray(gate) || !gate.every(isText)) {
    throw new Error(`${where}: gate must be a list of follow-up traps`);
  }
  const needs = (problem.requires ?? []).length > 0;
  if (needs && raw.without === undefined) {
    throw new Error(
      `${where}: ${problem.id} needs ${problem.requires?.join(', ')}: say what to ask without it`,
    );
  }
  const without = needs ? questions(raw.without, problems, `${where} without`) : [];
  return { kind: 'code', ...base, problem, gate: gate as string[], without };
}

export function parseInterview(name: string, raw: unknown, problems: Problem[]): InterviewDef {
  const where = `interviews/${name}.json`;
  if (!isObject(raw) || !isText(raw.title) || typeof raw.minutes !== 'number' || raw.minutes <= 0) {
    throw new Error(`${where}: needs a title and minutes (the time budget)`);
  }
  if (!Array.isArray(raw.rungs) || raw.rungs.length === 0) throw new Error(`${where}: needs rungs`);
  const rungs = raw.rungs.map((r, i) => rung(r, problems, `${where} rung ${i + 1}`));
  const ids = new Set(rungs.map((r) => r.id));
  if (ids.size !== rungs.length) throw new Error(`${where}: two rungs have the same id`);
  return { name, title: raw.title, budgetMs: Math.round(raw.minutes * 60_000), rungs };
}

/** Every interview in interviews/, by name. */
export function loadInterviews(dir = INTERVIEWS_DIR, problems = loadProblems()): InterviewDef[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json') && NAME.test(file.slice(0, -5)))
    .sort()
    .map((file) => {
      const name = file.slice(0, -5);
      const text = readFileSync(path.join(dir, file), 'utf8');
      return parseInterview(name, JSON.parse(text) as unknown, problems);
    });
}
