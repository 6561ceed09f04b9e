/**
 * Size limits of the product's source (docs/architecture.md, "Rules that keep it this way"): no file over 600 lines and no
 * function over 120, outside the demo world's generated data. A file or function that outgrows them is
 * split by concern, not exempted here. The functions are found with TypeScript's own parser (in .vue
 * files, inside <script>), so arrow functions, methods and Pinia setup stores count like declarations.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SCANNED = ['common', 'main', 'preload', 'renderer/src', 'native-src']
const SOURCE = /\.(ts|mts|vue|cpp|hpp|h|c)$/
/** The demo world is data written as code (its paragraphs and question templates): its size is its content. */
const DEMO_DATA = 'main/corpus/demo-world/'
const MAX_FILE_LINES = 600
const MAX_FUNCTION_LINES = 120

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(rel)
    return e.isFile() && SOURCE.test(e.name) ? [rel] : []
  })
}

const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0)

/** Every function-like node with a body longer than `max` lines, as `path:line name (n lines)`. */
export function longFunctions(path: string, text: string, max: number): string[] {
  const blocks: { code: string; firstLine: number }[] = []
  if (path.endsWith('.vue')) {
    for (const m of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
      blocks.push({ code: m[1]!, firstLine: text.slice(0, m.index + m[0].indexOf('>') + 1).split('\n').length - 1 })
    }
  } else blocks.push({ code: text, firstLine: 0 })
  const out: string[] = []
  for (const { code, firstLine } of blocks) {
    const sf = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
        const end = sf.getLineAndCharacterOfPosition(node.end).line
        const lines = end - start + 1
        if (lines > max) out.push(`${path}:${firstLine + start + 1} ${nameOf(node, sf)} (${lines} lines)`)
      }
      ts.forEachChild(node, visit)
    }
    visit(sf)
  }
  return out
}

function nameOf(node: ts.Node, sf: ts.SourceFile): string {
  const own = (node as { name?: ts.Node }).name
  if (own) return own.getText(sf)
  const parent = node.parent as { name?: ts.Node } | undefined
  if (parent?.name) return parent.name.getText(sf)
  return ts.isCallExpression(node.parent) ? `callback of ${node.parent.expression.getText(sf).slice(0, 40)}` : 'anonymous function'
}

describe('source size', () => {
  const files = SCANNED.flatMap(walk).filter((p) => !p.startsWith(DEMO_DATA))

  it('finds long functions of every kind, in .ts and in a .vue script', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const src = `export function a() {\n${body(130)}\n}\nconst b = () => {\n${body(10)}\n}\nclass C {\n  m() {\n${body(125)}\n  }\n}\nexport const s = defineStore('s', () => {\n${body(121)}\n})\n`
    expect(longFunctions('x.ts', src, 120)).toEqual(['x.ts:1 a (132 lines)', 'x.ts:146 m (127 lines)', 'x.ts:274 callback of defineStore (123 lines)'])
    const vue = `<template><p/></template>\n<script setup lang="ts">\nfunction f() {\n${body(121)}\n}\n</script>\n`
    expect(longFunctions('V.vue', vue, 120)).toEqual(['V.vue:3 f (123 lines)'])
  })

  it(`no product source file outside demo data is over ${MAX_FILE_LINES} lines`, () => {
    expect(files.length).toBeGreaterThan(300)
    const long = files.map((p) => [p, lineCount(readFileSync(join(ROOT, p), 'utf8'))] as const).filter(([, n]) => n > MAX_FILE_LINES)
    expect(long.map(([p, n]) => `${p} (${n} lines)`)).toEqual([])
  })

  it(`no function outside demo data is over ${MAX_FUNCTION_LINES} lines`, () => {
    const scripts = files.filter((p) => /\.(ts|mts|vue)$/.test(p))
    expect(scripts.length).toBeGreaterThan(300)
    expect(scripts.flatMap((p) => longFunctions(p, readFileSync(join(ROOT, p), 'utf8'), MAX_FUNCTION_LINES))).toEqual([])
  })
})
