// No module in src imports itself back through a chain of imports (issue 20): a loop makes load order
// decide which side sees `undefined`, and it ties slices that should stay apart. TypeScript's own scanner
// and resolver read the graph, so this sees what tsc and the bundler see.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname);
const options = ts.parseJsonConfigFileContent(
  ts.readConfigFile(path.join(root, '../tsconfig.json'), ts.sys.readFile).config,
  ts.sys,
  path.join(root, '..')
).options;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.join(folder, file));
}

/** Each file's imports inside `folder`; `import()` counts too, since a lazy loop is still a loop in the design. */
function importGraph(files: string[]): Map<string, string[]> {
  const inside = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles
        .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
        .filter((target): target is string => target !== undefined && inside.has(target));
      return [file, [...new Set(targets)]];
    })
  );
}

/** Every import loop, each as the chain of files from one file back to itself. */
function importCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const chain: string[] = [];
  const onChain = new Set<string>();
  const visit = (file: string) => {
    if (onChain.has(file)) {
      cycles.push([...chain.slice(chain.indexOf(file)), file]);
      return;
    }
    if (done.has(file)) return;
    chain.push(file);
    onChain.add(file);
    for (const target of graph.get(file) ?? []) visit(target);
    chain.pop();
    onChain.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return cycles;
}

describe('imports in src', () => {
  it('form no loop', () => {
    const graph = importGraph(sourceFiles(root));
    const loops = importCycles(graph).map((cycle) => cycle.map((file) => path.relative(root, file)).join(' -> '));
    expect(graph.size).toBeGreaterThan(100);
    expect(loops).toEqual([]);
  });

  it('are judged by a walk that finds a loop through three files', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']]
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});
