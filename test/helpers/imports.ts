// The imports of every file under src/, read with the TypeScript parser: what the circle and layer
// tests check. Every import counts, type-only and dynamic ones too: each still makes one file
// depend on the other, for a reader if not for the loader.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

type Kind = 'import' | 'import type' | 'import()' | 'require()';

/** An import between two files of src/, named from the repository's root (`src/cli/program.ts`). */
export interface Edge {
  from: string;
  to: string;
  line: number;
  kind: Kind;
}

/** An import as written: `specifier` is undefined when it is computed, so no reader can follow it. */
export interface Written {
  specifier: string | undefined;
  line: number;
  kind: Kind;
}

/** Every module a file names, with where and how it names each. */
export function readImports(file: string, text: string): Written[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Written[] = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined, kind: Kind) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: specifier && ts.isStringLiteralLike(specifier) ? specifier.text : undefined, line, kind });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      // `import { type A }` still loads the module under verbatimModuleSyntax; only `import type` is erased.
      add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ? 'import type' : 'import');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node, node.moduleSpecifier, node.isTypeOnly ? 'import type' : 'import');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly ? 'import type' : 'import');
    } else if (ts.isImportTypeNode(node)) {
      add(node, ts.isLiteralTypeNode(node.argument) ? node.argument.literal : node.argument, 'import type');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], 'import()');
    } else if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'require' &&
      node.arguments.length === 1
    ) {
      add(node, node.arguments[0], 'require()');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(c|m)?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The file a relative specifier names, as the compiler finds it (`./x.js` is `./x.ts`); undefined when there is none.
 */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base.replace(/\.mjs$/, '.mts'),
    base.replace(/\.cjs$/, '.cts'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile());
}

const name = (path: string) => relative(ROOT, path).split(sep).join('/');

/**
 * Every file under src/ and the imports between them. `unreadable` lists what no rule could
 * follow: a computed specifier, a relative one naming no file, or a non-relative path into src/.
 */
export function readTree(): { files: string[]; edges: Edge[]; unreadable: string[] } {
  const files = sourceFiles(SRC);
  const edges: Edge[] = [];
  const unreadable: string[] = [];
  for (const file of files) {
    for (const { specifier, line, kind } of readImports(file, readFileSync(file, 'utf8'))) {
      if (specifier === undefined) unreadable.push(`${name(file)}:${line} ${kind} of a computed name`);
      else if (specifier.startsWith('.')) {
        const target = resolveSpecifier(file, specifier);
        if (!target) unreadable.push(`${name(file)}:${line} ${kind} '${specifier}' names no file`);
        else if (target.startsWith(SRC + sep)) edges.push({ from: name(file), to: name(target), line, kind });
      } else if (specifier.startsWith('src/') || specifier.startsWith('/')) {
        unreadable.push(`${name(file)}:${line} '${specifier}' is not relative: the rules read relative imports only`);
      }
    }
  }
  return { files: files.map(name), edges, unreadable };
}
