import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes, type RouteName } from '../../preload/contract'
import { startBrowserServer, type BrowserServer } from '../../main/adapters/http-server'
import { createHandlers } from '../../main/api/handlers'
import { seededRandom } from '../../main/eval'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

/**
 * A bounded fuzz of every route of the contract over the browser-mode server on 127.0.0.1: malformed
 * bodies (wrong JSON, wrong types, prototype keys, deep nesting, huge values) and well-typed bodies
 * with hostile values (prototype member names, unknown ids, paths outside the data folder). Seeded, so
 * a failure replays; capped in count and time. No answer may be a 5xx.
 */

const CASES_PER_ROUTE = 60
const TIME_BUDGET_MS = 60_000
/** Rounds sent whatever the time: the coverage the assertions below rely on. */
const MIN_ROUNDS = 12
/** Well-formed calls of these need a native dialog, which browser mode does not have (501 UNSUPPORTED by design): only malformed ones are sent. */
const HOST_ONLY: ReadonlySet<string> = new Set(['system.pickFolder', 'system.pickFile'])

const PROTO_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__']

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/** Key lists of an input schema, looking through defaults, optionals, pipes and unions. */
function shapesOf(schema: z.ZodType, depth = 0): Array<Record<string, z.ZodType>> {
  if (depth > 6) return []
  if (schema instanceof z.ZodObject) return [schema.shape as Record<string, z.ZodType>]
  if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap((o) => shapesOf(o, depth + 1))
  const def = (schema as { _zod?: { def?: { innerType?: z.ZodType; in?: z.ZodType } } })._zod?.def
  if (def?.innerType) return shapesOf(def.innerType, depth + 1)
  if (def?.in) return shapesOf(def.in, depth + 1)
  return []
}

function deep(levels: number): Json {
  let v: Json = 'bottom'
  for (let i = 0; i < levels; i += 1) v = i % 2 ? [v] : { a: v }
  return v
}

/** Whether the contract accepts a body (the server drops a leading BOM and reads `null` as `{}`). */
function wellTyped(name: RouteName, text: string): boolean {
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    return false
  }
  return routes[name].input.safeParse(value ?? {}).success
}

describe('API fuzz over the browser-mode server', () => {
  const tmp = tempDir()
  let backend: TestBackend
  let server: BrowserServer
  let base: string
  let workspaceId: string
  let runIds: number[] = []
  let episodeId = 1
  let questionSetId = 1

  beforeAll(async () => {
    const rendererDir = join(tmp.dir, 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>')
    backend = await startBackend()
    // A real workspace with a corpus, a graph and two runs, so hostile values reach the handlers' lookups.
    workspaceId = (await backend.call('workspace.create', { name: 'fuzzed' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 5, size: 0.2 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    questionSetId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
    for (const name of ['greedy', 'random']) {
      const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment: 'graph-menu', policy: { kind: 'scripted', name }, questionSetId, limit: 2 } })
      expect((await backend.services.jobs.waitFor(job.id)).status).toBe('done')
    }
    runIds = (await backend.call('runs.list', { workspaceId })).map((r) => r.id)
    episodeId = (await backend.call('runs.episodes', { workspaceId, runId: runIds[0]! })).episodes[0]!.id
    server = await startBrowserServer({ handlers: createHandlers(backend.services, { mode: 'browser' }), events: backend.services.events, rendererDir, port: 0 })
    base = `http://127.0.0.1:${server.port}`
  }, 600_000)

  afterAll(async () => {
    await server?.close()
    await backend?.close()
    tmp.cleanup()
  })

  it('answers every malformed call with a 4xx envelope, never a 5xx', async () => {
    const random = seededRandom(20261201)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
    const hostile = (): Json =>
      pick<() => Json>([
        () => pick(PROTO_NAMES),
        () => workspaceId,
        () => pick(runIds),
        () => pick([0, -1, 1.5, 2 ** 53, -(2 ** 31), 1e308, 4294967297]),
        () => pick(['', ' ', 'x'.repeat(5000), '\u0000', '\u202e', '😀', 'p:1', 's:999999999999', 'e:0', 'x:1', '%00', '${7*7}', "'; drop table jobs; --"]),
        () => pick(['/nonexistent-harness-fuzz/x.graphml', '../../../nonexistent/x.graphml', 'C:\\nope\\x.graphml', '/nonexistent-harness-fuzz/model.gguf', 'hf:__proto__/x', 'hf:a/b:c', 'https://127.0.0.1:1/x.gguf']),
        () => pick([null, true, false]),
        () => [hostile(), hostile()],
        () => ({ [pick(PROTO_NAMES)]: hostile() }),
        () => JSON.parse(`{"__proto__": {"polluted": true}, "a": 1}`) as Json,
        () => ({ kind: pick(['demo', 'folder', 'files', 'benchmark', 'scripted', 'gguf', 'constructor']), name: pick(PROTO_NAMES), seed: 1 }),
      ])()

    /** A plausible value for a field, by its name, so that a body with one hostile field reaches the handler's lookups. */
    const plausible = (key: string): Json => {
      const byKey: Record<string, Json> = {
        workspaceId, id: workspaceId, runId: runIds[0]!, baselineRunId: runIds[0]!, runIds: runIds.slice(1), episodeId, setId: questionSetId,
        questionSetId, chunkId: 1, metric: 'sp.recall', limit: 5, offset: 0, k: 3, depth: 1, center: 'p:1', text: 'the', query: 'the',
        name: 'fuzz', confirmName: 'not its name', mode: 'bm25', step: 1, path: '/nonexistent-harness-fuzz/x.gguf', role: 'policy',
        title: 't', extensions: ['gguf'], config: {}, status: 'failed',
      }
      return Object.hasOwn(byKey, key) ? byKey[key]! : hostile()
    }

    /** Bodies for one route: raw text (bad JSON) or a value to serialise. */
    const bodiesFor = (name: RouteName): Array<{ raw?: string; value?: Json }> => {
      const shapes = shapesOf(routes[name].input as z.ZodType)
      const keys = [...new Set(shapes.flatMap((s) => Object.keys(s)))]
      const out: Array<{ raw?: string; value?: Json }> = [
        { raw: '{' },
        { raw: '{"a":' },
        { raw: '\ufeff{}' },
        { raw: 'null' },
        { raw: '[]' },
        { raw: '"a string"' },
        { raw: '1e999' },
        { raw: '{"__proto__": {"isAdmin": true}}' },
        { raw: '{"constructor": {"prototype": {"isAdmin": true}}}' },
        { raw: `{${keys.map((k) => `"${k}": 1`).join(', ')}${keys.length ? ', ' : ''}"__proto__": []}` },
        { value: deep(200) },
        { value: { [keys[0] ?? 'x']: deep(80) } },
        { value: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])) },
      ]
      // Systematic: each field in turn holds each prototype member name, the other fields plausible.
      for (const key of keys) {
        for (const proto of PROTO_NAMES) out.push({ value: { ...Object.fromEntries(keys.map((k) => [k, plausible(k)])), [key]: proto } })
      }
      const systematic = out.length
      while (out.length < systematic + CASES_PER_ROUTE) {
        const value: Record<string, Json> = {}
        if (random() < 0.5) {
          // Near-valid: every field plausible but one or two hostile ones.
          for (const key of keys) value[key] = plausible(key)
          for (let n = random() < 0.6 ? 1 : 2; n > 0 && keys.length > 0; n -= 1) value[pick(keys)] = hostile()
        } else {
          for (const key of keys) if (random() < 0.7) value[key] = hostile()
        }
        if (random() < 0.3) value[pick([...PROTO_NAMES, 'unexpected'])] = hostile()
        if (name === 'job.start' && random() < 0.8) {
          value.kind = pick(['db.maintenance', 'corpus.ingest', 'corpus.embed', 'eval.run', 'train.run', 'graph.export', 'model.download', '__proto__'])
          value.params = random() < 0.5 ? { [pick(['path', 'center', 'source', 'modelPath', 'uri', 'environment', 'policy', '__proto__'])]: hostile() } : hostile()
        }
        out.push({ value })
      }
      return out
    }

    const started = Date.now()
    const byStatus = new Map<number, number>()
    const fiveHundreds: string[] = []
    const wellFormed = new Map<string, number>()
    let sent = 0
    let noStore = 0
    // Every case is drawn first (the same seeded sequence as ever), then sent round by round over all
    // routes: the time cap may shorten the run on a loaded machine, never below MIN_ROUNDS cases per route.
    const cases = (Object.keys(routes) as RouteName[]).map((name) => ({ name, bodies: bodiesFor(name) }))
    for (let round = 0; round < CASES_PER_ROUTE; round++) {
      if (round >= MIN_ROUNDS && Date.now() - started > TIME_BUDGET_MS) break
      for (const { name, bodies } of cases) {
        const body = bodies[round]
        if (!body) continue
        const text = body.raw ?? JSON.stringify(body.value)
        const valid = wellTyped(name, text)
        if (valid && HOST_ONLY.has(name)) continue
        if (valid) wellFormed.set(name, (wellFormed.get(name) ?? 0) + 1)
        const res = await fetch(`${base}/api/call/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` }, body: text })
        sent += 1
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1)
        if (res.headers.get('cache-control') === 'no-store') noStore += 1
        const envelope = (await res.json().catch(() => null)) as { ok: boolean; error?: { code: string; message: string } } | null
        expect(envelope, `${name} ${text.slice(0, 200)}: not an envelope`).not.toBeNull()
        if (res.status >= 500) fiveHundreds.push(`${res.status} ${name} ${text.slice(0, 300)} -> ${envelope?.error?.message ?? ''}`)
        if (res.status !== 200) expect(envelope?.ok, `${name}: status ${res.status} with ok: true`).toBe(false)
      }
    }
    // The download route and unknown routes, with hostile ids.
    for (const id of [...PROTO_NAMES, '..', '%2e%2e%2fapp.db', 'x'.repeat(300), workspaceId]) {
      const res = await fetch(`${base}/api/download/${encodeURIComponent(id)}?token=${server.token}`)
      sent += 1
      byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1)
      if (res.headers.get('cache-control') === 'no-store') noStore += 1
      if (res.status >= 500) fiveHundreds.push(`${res.status} download ${id}`)
    }
    for (const route of [...PROTO_NAMES, '%zz', 'x'.repeat(300), '..%2f..%2fapp.db']) {
      const res = await fetch(`${base}/api/call/${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` }, body: '{}' })
      sent += 1
      byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1)
      if (res.headers.get('cache-control') === 'no-store') noStore += 1
      if (res.status >= 500) fiveHundreds.push(`${res.status} route ${route}`)
    }
    const seconds = (Date.now() - started) / 1000
    const statuses = [...byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ')
    console.log(
      `api fuzz: ${sent} requests over ${Object.keys(routes).length} routes in ${seconds.toFixed(1)} s; statuses ${statuses}; ` +
        `5xx: ${fiveHundreds.length}; no-store: ${noStore}/${sent}; well-typed hostile bodies: ${[...wellFormed.values()].reduce((a, b) => a + b, 0)}`,
    )
    expect(fiveHundreds).toEqual([])
    expect(noStore).toBe(sent)
    expect(sent).toBeGreaterThan(Object.keys(routes).length * 10)
    // Nothing leaked onto Object.prototype.
    expect(({} as Record<string, unknown>).polluted ?? ({} as Record<string, unknown>).isAdmin).toBeUndefined()
  }, 600_000)
})
