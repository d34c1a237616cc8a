import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A fresh copy of the repository as a clone would have it: the files git tracks (and new, not ignored
 * ones), as they are in the work tree, without data, builds or caches. node_modules is linked, as
 * `npm ci` would have installed it.
 */
export function freshClone(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-clone-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    const from = path.join(REPO_ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the work tree
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, file));
  }
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The steps of a docs walkthrough: code blocks marked `<!-- flow: run|write <file>|merge <file> -->`. */
export interface FlowStep {
  action: 'run' | 'write' | 'merge';
  file?: string;
  body: string;
}

export function flowSteps(markdown: string): FlowStep[] {
  const steps: FlowStep[] = [];
  const pattern = /<!-- flow: (run|write|merge)(?: (\S+))? -->\s*\n\s*```\w*\n([\s\S]*?)\n\s*```/g;
  for (const m of markdown.matchAll(pattern)) {
    // The block is indented under its list item: take the indentation off.
    const lines = m[3].split('\n');
    const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
    steps.push({ action: m[1] as FlowStep['action'], file: m[2], body: lines.map((l) => l.slice(indent)).join('\n') });
  }
  return steps;
}

/** RFC 7386 JSON Merge Patch, as a developer applies an edit the docs show. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
