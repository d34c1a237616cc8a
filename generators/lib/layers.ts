/**
 * The one-way layers of DESIGN §8, checked from the imports of every source file under `src/` (the test
 * tests/unit/layers.test.ts runs it). Imports are read with a real TypeScript parser (oxc, through Vite's
 * `parseSync`): static and dynamic imports, re-exports, type-only imports, `import('x').T` types and
 * `declare module 'x'` augmentations all count, comments and strings do not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseSync } from 'vite';

/** Paths are relative to the repository root with `/`; a prefix ending in `/` is a folder, else one file. */
export interface LayerRule {
  /** The files the rule applies to. */
  from: string;
  /** What they must not import. */
  forbid: string[];
  /** The rule in words, printed with each breach. */
  why: string;
}

const SERVER_ROOT = ['src/server/app.ts', 'src/server/routes.ts', 'src/server/main.ts', 'src/server/server.ts'];
const WEB_ROOT = ['src/web/app/', 'src/web/main.tsx'];

/**
 * Lower layers never import higher ones. The composition roots (server: app.ts with its route list
 * routes.ts; web: src/web/app/ and main.tsx) wire core, runtime/renderer, domain and pages together and
 * are imported by nothing below them.
 */
export const LAYER_RULES: LayerRule[] = [
  { from: 'src/shared/', forbid: ['src/server/', 'src/web/'], why: 'src/shared imports nothing else of src/' },
  { from: 'src/web/', forbid: ['src/server/'], why: 'browser code never imports server code (what both need lives in src/shared)' },
  { from: 'src/server/db/', forbid: ['src/server/core/', 'src/server/runtime/', 'src/server/domain/', 'src/server/seed/', ...SERVER_ROOT], why: 'server/db knows no feature' },
  { from: 'src/server/core/', forbid: ['src/server/runtime/', 'src/server/domain/', 'src/server/seed/', ...SERVER_ROOT], why: 'server/core never imports the runtime or the domain' },
  { from: 'src/server/runtime/', forbid: ['src/server/domain/', 'src/server/seed/', ...SERVER_ROOT], why: 'the runtime reaches the domain only through hooks named in schemas' },
  { from: 'src/server/domain/', forbid: ['src/server/seed/', ...SERVER_ROOT], why: 'the domain is wired in by the composition root, not the other way round' },
  { from: 'src/web/core/', forbid: ['src/web/renderer/', 'src/web/pages/', ...WEB_ROOT], why: 'web/core never imports the renderer or the pages' },
  { from: 'src/web/renderer/', forbid: ['src/web/pages/', ...WEB_ROOT], why: 'web/renderer never imports the pages' },
  { from: 'src/web/pages/', forbid: WEB_ROOT, why: 'the pages are wired in by the composition root (src/web/app), not the other way round' },
];

/** An import that breaks a rule on purpose for now: each names the issue that removes it. */
export interface AllowedImport {
  file: string;
  target: string;
  reason: string;
}

/** Imports that break a rule on purpose, each with its reason (none: issue 12 moved the spreadsheet reading below core). */
export const ALLOWED_IMPORTS: AllowedImport[] = [];

export interface SourceImport {
  /** The importing file, relative to the root. */
  file: string;
  /** As written in the source. */
  specifier: string;
  /** The file it resolves to, relative to the root; undefined for packages. */
  target?: string;
  line: number;
}

export interface LayerBreach extends SourceImport {
  rule: LayerRule;
}

const SOURCE = /\.(ts|tsx|mts)$/;

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return SOURCE.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every module specifier in a TypeScript source, with its line. */
export function specifiersOf(fileName: string, code: string): { specifier: string; offset: number }[] {
  const result = parseSync(fileName, code, { lang: fileName.endsWith('x') ? 'tsx' : 'ts' });
  if (result.errors.length) throw new Error(`${fileName}: ${result.errors[0].message}`);
  const found: { specifier: string; offset: number }[] = [];
  const literal = (node: unknown): string | undefined => {
    const n = node as { type?: string; value?: unknown } | null | undefined;
    return n?.type === 'Literal' && typeof n.value === 'string' ? n.value : undefined;
  };
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    const n = node as Record<string, unknown> & { type?: string; start: number };
    let specifier: string | undefined;
    switch (n.type) {
      case 'ImportDeclaration':
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
      case 'ImportExpression':
        specifier = literal(n.source);
        break;
      case 'TSImportType':
        specifier = literal(n.argument) ?? literal(n.source);
        break;
      case 'TSModuleDeclaration':
        specifier = literal(n.id);
        break;
      case 'CallExpression': {
        const callee = n.callee as { type?: string; name?: string };
        if (callee?.type === 'Identifier' && callee.name === 'require') specifier = literal((n.arguments as unknown[])[0]);
        break;
      }
    }
    if (specifier !== undefined) found.push({ specifier, offset: n.start });
    for (const [key, value] of Object.entries(n)) if (key !== 'parent' && value && typeof value === 'object') walk(value);
  };
  walk(result.program);
  return found;
}

/** The file a relative specifier names: `.js` written for `.ts`, extension-less, or a folder's index. */
function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier.split('?')[0]);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

const toPosix = (p: string) => p.split(path.sep).join('/');

/** The imports of every source file under `<root>/src`; a relative import that names no file throws. */
export function sourceImports(root: string): SourceImport[] {
  const out: SourceImport[] = [];
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const code = fs.readFileSync(file, 'utf8');
    const rel = toPosix(path.relative(root, file));
    for (const { specifier, offset } of specifiersOf(file, code)) {
      const line = code.slice(0, offset).split('\n').length;
      if (!specifier.startsWith('.')) {
        out.push({ file: rel, specifier, line });
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (!target) throw new Error(`${rel}:${line}: cannot resolve "${specifier}"`);
      out.push({ file: rel, specifier, target: toPosix(path.relative(root, target)), line });
    }
  }
  return out;
}

const covers = (prefix: string, file: string) => (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix);

/** Every import that breaks a rule and is not one of the allowed ones. */
export function layerBreaches(root: string, rules: LayerRule[] = LAYER_RULES, allowed: AllowedImport[] = ALLOWED_IMPORTS): LayerBreach[] {
  const breaches: LayerBreach[] = [];
  for (const imp of sourceImports(root)) {
    const { target } = imp;
    if (!target) continue;
    if (allowed.some((a) => a.file === imp.file && a.target === target)) continue;
    const rule = rules.find((r) => covers(r.from, imp.file) && r.forbid.some((f) => covers(f, target)));
    if (rule) breaches.push({ ...imp, rule });
  }
  return breaches;
}

export function describeBreach(b: LayerBreach): string {
  return `${b.file}:${b.line} imports ${b.specifier} (${b.target}): ${b.rule.why}`;
}
