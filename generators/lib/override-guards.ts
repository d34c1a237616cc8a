/**
 * Issue 24 §3.10: a school override replaces whole arrays (JSON Merge Patch), so one that restates a
 * step's `guards` to add a check can drop a safety guard without anyone noticing. `schemas:check` warns
 * for every guard the base schema declares on a step that the school's merged step no longer has, unless
 * the override names it under the step's `droppedGuards` (the explicit "we mean it"). A step deleted
 * whole (`null`) is explicit already and is not warned about.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mergePatch } from '../../src/shared/module-schema/merge-patch.js';
import { readSchoolOverrides } from '../../src/server/runtime/registry.js';

interface Transitions {
  'x-workflow'?: { transitions?: Record<string, { guards?: string[]; droppedGuards?: string[] } | null> };
}

/** The guards of the base's steps that the override drops without saying so: "<module>.<step>: guard <name>". */
export function silentlyDroppedGuards(moduleId: string, base: unknown, override: unknown): string[] {
  const before = (base as Transitions)['x-workflow']?.transitions ?? {};
  const after = (mergePatch(base, override) as Transitions)['x-workflow']?.transitions ?? {};
  const out: string[] = [];
  for (const [key, step] of Object.entries(before)) {
    const merged = after[key];
    if (!step || !merged) continue;
    const kept = new Set([...(merged.guards ?? []), ...(merged.droppedGuards ?? [])]);
    for (const guard of step.guards ?? []) if (!kept.has(guard)) out.push(`${moduleId}.${key}: guard ${guard}`);
  }
  return out;
}

/** Warnings for every school's overrides under `schemasDir` (one line each). */
export function overrideGuardWarnings(schemasDir: string, schools: readonly string[]): string[] {
  const warnings: string[] = [];
  for (const school of schools) {
    const overrides = readSchoolOverrides(schemasDir, school);
    for (const [id, patch] of Object.entries(overrides)) {
      const file = path.join(schemasDir, 'modules', `${id}.json`);
      if (!fs.existsSync(file)) continue; // an unknown module is reported by the deployment check
      const base = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      for (const dropped of silentlyDroppedGuards(id, base, patch)) {
        warnings.push(`school ${school}: the override drops ${dropped} of the base schema (name it under the step's droppedGuards if that is meant)`);
      }
    }
  }
  return warnings;
}
