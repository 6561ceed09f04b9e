/**
 * Inline episodes of a pooled environment server (main/env-server/router.ts), over a real demo
 * workspace and real HTTP: an episode alone on the server runs in the HTTP thread, one that starts while
 * another is open runs on a worker thread, and the same seeded episode gives the same transcript, byte
 * for byte, either way (the create, every step and the finish answer as sent; only the episode id and
 * the step's wall-clock `env_ms` differ, and both are blanked).
 */
import { describe, expect, it } from 'vitest'
import { startEnvServer } from '../../main/env-server'
import { useServedDemo } from '../helpers/env-server'

type Json = Record<string, any>

const served = useServedDemo()

async function send(method: string, path: string, body?: unknown): Promise<string> {
  const res = await served.request(method, path, body)
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method} ${path} -> ${res.status} ${text}`)
  return text
}
const stats = async (): Promise<Json> => JSON.parse(await send('GET', '/v1/stats')) as Json

/** Every answer of one episode as the bytes the server sent, the episode id and step wall times blanked. */
async function transcript(environment: 'graph-menu' | 'stateful', index: number, seed: number): Promise<string[]> {
  const texts: string[] = []
  const createdText = await send('POST', '/v1/episodes', { environment, set: 1, index, seed })
  const created = JSON.parse(createdText) as Json
  const id = created.episode_id as string
  texts.push(createdText)
  let state: Json = created
  for (let t = 0; !state.done; t++) {
    const action =
      environment === 'graph-menu'
        ? { menu_id: t >= 2 ? ((state.menu as Json[]).find((m) => m.type === 'ANSWER')?.id ?? state.menu[0].id) : ((state.menu as Json[]).find((m) => m.type === 'SELECT')?.id ?? state.menu[0].id) }
        : { tool_call: t === 0 ? { name: 'search_corpus', arguments: { query: created.question.text } } : { name: 'end_search', arguments: { reasoning: 'enough' } } }
    const text = await send('POST', `/v1/episodes/${id}/step`, action)
    texts.push(text)
    const out = JSON.parse(text) as Json
    state = { ...out, menu: out.menu ?? state.menu }
  }
  texts.push(await send('POST', `/v1/episodes/${id}/finish`, {}))
  return texts.map((t) => t.replaceAll(id, '<id>').replace(/"env_ms":[0-9.e+-]+/g, '"env_ms":0'))
}

describe('inline episodes of a pooled server', () => {
  it.each([['graph-menu' as const], ['stateful' as const]])('%s: a seeded episode served inline and on a worker gives byte-identical answers', async (environment) => {
    const before = await stats()
    // Alone on the server: inline.
    const inline = await transcript(environment, 3, 11)
    const afterInline = await stats()
    expect(afterInline.createdInline - before.createdInline).toBe(1)
    // Another episode open (itself inline, as it starts alone): the same episode now runs on the worker.
    const blocker = JSON.parse(await send('POST', '/v1/episodes', { environment: 'graph-menu', set: 1, index: 0, seed: 0 })) as Json
    const pooled = await transcript(environment, 3, 11)
    const afterPooled = await stats()
    expect(afterPooled.createdInline - afterInline.createdInline).toBe(1)
    expect(afterPooled.created - afterInline.created).toBe(2)
    expect(afterPooled.inline).toBe(1)
    expect(pooled).toEqual(inline)
    // The finish answer carries the reward and, for graph-menu, SNC credit per step.
    const finish = JSON.parse(inline.at(-1)!) as Json
    expect(finish.per_step_credit).toHaveLength(inline.length - 2)
    if (environment === 'graph-menu') expect(finish.credit_scheme).toBe('snc')
    await send('DELETE', `/v1/episodes/${blocker.episode_id}`)
    expect(await stats()).toMatchObject({ open: 0, inline: 0 })
  })

  it('with inline: 0 every episode runs on a worker, and the health answer says so', async () => {
    const pooledOnly = await startEnvServer({ raw: served.demo.db.raw, appVersion: 'test', port: 0, workers: 1, inline: 0 })
    try {
      const headers = { authorization: `Bearer ${pooledOnly.token}`, 'content-type': 'application/json' }
      const health = (await (await fetch(`${pooledOnly.url}/v1/health`, { headers: { authorization: headers.authorization } })).json()) as Json
      expect(health).toMatchObject({ workers: 1, inline_below: 0 })
      const created = (await (await fetch(`${pooledOnly.url}/v1/episodes`, { method: 'POST', headers, body: JSON.stringify({ environment: 'graph-menu', set: 1, index: 0, seed: 0 }) })).json()) as Json
      expect(created.episode_id).toEqual(expect.any(String))
      expect(pooledOnly.sessions.counters()).toMatchObject({ open: 1, inline: 0, createdInline: 0 })
    } finally {
      await pooledOnly.close()
    }
  })
})
