// No import circles under src/ (DESIGN: a shared module never imports an area or a command back).
// Every import counts, type-only and dynamic ones too: a circle of types still makes a reader hold
// both files in mind at once, and a dynamic import still makes one file depend on the other.
import { describe, expect, it } from 'vitest';
import { readImports, readTree, type Edge } from '../helpers/imports.js';

/** The strongly connected parts of a graph with more than one file (or a file importing itself). */
function tangles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || graph.get(node)?.includes(node)) found.push(part.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The shortest circle through the first file of a tangle, as the files in import order (first again at the end). */
function shortestCircle(graph: ReadonlyMap<string, readonly string[]>, tangle: readonly string[]): string[] {
  const inside = new Set(tangle);
  const start = tangle[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    for (const next of graph.get(node) ?? []) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at))
          path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

function graphOf(files: readonly string[], edges: readonly Edge[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) graph.set(file, []);
  for (const { from, to } of edges) if (!graph.get(from)!.includes(to)) graph.get(from)!.push(to);
  return graph;
}

/** `a.ts:3 import type → b.ts:9 import() → a.ts`: each file, then the line and kind of its import of the next. */
function describeCircle(circle: readonly string[], edges: readonly Edge[]): string {
  return circle
    .map((file, i) => {
      const next = circle[i + 1];
      if (next === undefined) return file;
      const edge = edges.find((e) => e.from === file && e.to === next)!;
      return `${file}:${edge.line} ${edge.kind} →`;
    })
    .join(' ');
}

function describeTangles(graph: ReadonlyMap<string, readonly string[]>, edges: readonly Edge[]): string[] {
  return tangles(graph).map((tangle) => {
    const circle = shortestCircle(graph, tangle);
    const others = tangle.filter((file) => !circle.includes(file));
    return others.length
      ? `${describeCircle(circle, edges)}\n    (and, through other imports, ${others.join(', ')})`
      : describeCircle(circle, edges);
  });
}

describe('import circles', () => {
  it('the reader sees static, type-only, re-exported, dynamic and type-position imports', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from './b.js';",
      "import { type C } from './c.js';",
      "export * from './d.js';",
      "export type { E } from './e.js';",
      "const f = await import('./f.js');",
      "let g: import('./g.js').G;",
      "type H = typeof import('./h.js');",
      "const i = require('./i.js');",
      "import j = require('./j.js');",
      "import k from 'node:fs';",
      'const l = await import(name);',
    ].join('\n');
    expect(readImports('x.ts', text).map(({ specifier, kind, line }) => `${line} ${kind} ${specifier}`)).toEqual([
      '1 import ./a.js',
      '2 import type ./b.js',
      '3 import ./c.js',
      '4 import ./d.js',
      '5 import type ./e.js',
      '6 import() ./f.js',
      '7 import type ./g.js',
      '8 import type ./h.js',
      '9 require() ./i.js',
      '10 import ./j.js',
      '11 import node:fs',
      '12 import() undefined',
    ]);
  });

  it('a circle is reported as its files in import order, and only the circle', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['a', 'e']],
    ]);
    expect(tangles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(shortestCircle(graph, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'a']);
    expect(shortestCircle(graph, ['e'])).toEqual(['e', 'e']);
  });

  const { files, edges, unreadable } = readTree();

  it('every relative import under src/ names a file the reader can follow', () => {
    expect(unreadable).toEqual([]);
    expect(edges.length).toBeGreaterThan(100);
  });

  it('no file under src/ imports itself back, through any chain of imports', () => {
    const found = describeTangles(graphOf(files, edges), edges);
    expect(
      found,
      'import circles: move the shared piece down into a module both sides can import, or pass it in',
    ).toEqual([]);
  });
});
