/**
 * No circle of value imports among main/ files: a circle makes module evaluation order matter (a value
 * read before its module ran is undefined) and ties rooms together that the floors keep apart.
 * `import type` and `export type` are erased, so they are not edges; every other import or re-export
 * declaration is (under verbatimModuleSyntax even `import { type A }` stays as a module load).
 * Dynamic `import()` is lazy and not an edge. Relative specifiers are resolved like import-rules.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

type Graph = Map<string, Set<string>>

/** The relative specifiers a file loads when it runs: import and re-export declarations that are not type-only. */
function valueImports(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const out: string[] = []
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      if (node.importClause?.isTypeOnly) continue
    } else if (ts.isExportDeclaration(node)) {
      if (node.isTypeOnly || !node.moduleSpecifier) continue
    } else continue
    const spec = node.moduleSpecifier
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) out.push(spec.text)
  }
  return out
}

function resolveRelative(from: string, specifier: string, known: Set<string>): string | null {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier))
  const stem = base.replace(/\.[cm]?js$/, '')
  const candidates = [base, `${stem}.ts`, `${base}.ts`, `${base}/index.ts`]
  return candidates.find((c) => known.has(c)) ?? null
}

function graphOf(files: { path: string; text: string }[]): Graph {
  const known = new Set(files.map((f) => f.path))
  const graph: Graph = new Map()
  for (const f of files) {
    const to = new Set<string>()
    for (const spec of valueImports(f.path, f.text)) {
      const target = resolveRelative(f.path, spec, known)
      if (target) to.add(target)
    }
    graph.set(f.path, to)
  }
  return graph
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan), each sorted. */
function circles(graph: Graph): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next += 1
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort())
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)
  return found
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(rel)
    return e.isFile() && /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : []
  })
}

describe('import cycles', () => {
  it('the checker finds a circle of value imports and ignores one closed only by a type import', () => {
    const graph = graphOf([
      { path: 'main/a.ts', text: "import { b } from './b'\nexport const a = 1\n" },
      { path: 'main/b.ts', text: "export { c } from './c/index'\nexport const b = 2\n" },
      { path: 'main/c/index.ts', text: "import { a } from '../a.js'\nexport const c = 3\n" },
      { path: 'main/d.ts', text: "import type { E } from './e'\nexport const d = 4\n" },
      { path: 'main/e.ts', text: "import { d } from './d'\nexport type { D } from './d'\nexport type E = 5\nconst lazy = () => import('./d')\n" },
    ])
    expect(circles(graph)).toEqual([['main/a.ts', 'main/b.ts', 'main/c/index.ts']])
  })

  it('main/ has no circle of value imports', () => {
    const files = walk('main').map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
    expect(files.length).toBeGreaterThan(100)
    expect(circles(graphOf(files)).map((c) => c.join(' <-> '))).toEqual([])
  })
})
