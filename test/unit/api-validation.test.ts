import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes, type RouteName } from '../../preload/contract'
import { dispatch, type Handlers } from '../../main/api/dispatch'
import { createHandlers } from '../../main/api/handlers'
import { startBackend, type TestBackend } from '../helpers/services'

/** Inputs that each route must refuse with a VALIDATION error (beyond the generic ones below). */
const badInputs: Partial<Record<RouteName, unknown[]>> = {
  'workspace.create': [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(121) }, { name: 42 }, { name: 'bad\u0007name' }],
  'workspace.get': [{ id: '' }, { id: 5 }],
  'workspace.rename': [{ id: 'a' }, { id: 'a', name: '' }],
  'workspace.delete': [{ id: 'a' }],
  'job.list': [{ limit: 0 }, { limit: 'ten' }],
  'job.start': [{ kind: 'nope', workspaceId: 'a' }, { kind: 'db.maintenance' }, { kind: 'db.maintenance', workspaceId: 'a', params: { vacuum: 'yes' } }],
  'job.cancel': [{}, { id: '' }],
  'system.pickFolder': [{ title: 7 }],
  'system.pickFile': [{ extensions: ['../x'] }],
}

describe('API validation', () => {
  let backend: TestBackend
  let handlers: Handlers
  beforeAll(async () => {
    backend = await startBackend()
    handlers = createHandlers(backend.services, { mode: 'browser' })
  })
  afterAll(() => backend.close())

  for (const name of Object.keys(routes) as RouteName[]) {
    it(`${name} refuses malformed input with a validation error`, async () => {
      const cases = ['a string', 17, [], { unexpectedKey: true }, ...(badInputs[name] ?? [])]
      for (const input of cases) {
        const env = await dispatch(handlers, name, input)
        expect(env.ok, `${name} accepted ${JSON.stringify(input)}`).toBe(false)
        if (!env.ok) {
          expect(env.error.code).toBe('VALIDATION')
          expect(env.error.issues?.length).toBeGreaterThan(0)
        }
      }
    })
  }

  it('refuses unknown routes without throwing', async () => {
    for (const name of ['nope', '__proto__', 'constructor', 42, null]) {
      const env = await dispatch(handlers, name, {})
      expect(env).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    }
  })

  it('maps missing records to NOT_FOUND and unsupported host features to UNSUPPORTED', async () => {
    expect(await dispatch(handlers, 'workspace.get', { id: 'missing' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await dispatch(handlers, 'system.pickFolder', {})).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } })
    expect(await dispatch(handlers, 'system.pickFile', {})).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } })
  })

  it('accepts good input', async () => {
    const env = await dispatch(handlers, 'workspace.create', { name: '  Trimmed  ' })
    expect(env).toMatchObject({ ok: true, data: { name: 'Trimmed' } })
  })
})
