/**
 * Issue 34 part 5: each Harness-G environment declares its options' bounds beside its defaults
 * (ConfigBounds: a range for every number option, the values of every string option, asked for by the
 * compiler); the shared substrate holds only its own. A delta out of bounds is refused naming the key.
 */
import { describe, expect, it } from 'vitest'
import { createEnvironment, environmentFactory } from '../../main/harness'
import { useDemoWorkspace } from '../helpers/corpus'

const demo = useDemoWorkspace(1, 0.3)

describe('Harness-G option bounds, declared by each environment', () => {
  it('every number and string option of graph-menu and free-query has a declared bound', () => {
    for (const name of ['graph-menu', 'free-query']) {
      for (const [key, value] of Object.entries(environmentFactory(name).defaults)) {
        if (typeof value === 'boolean') continue
        // One past any declared range, or an unknown string: refused by name, never taken for a boolean.
        const bad = typeof value === 'number' ? 1_000_000 : 'not-an-option'
        expect(() => createEnvironment(name, demo.workspace.ctx, { [key]: bad }), `${name}.${key}`).toThrow(new RegExp(`${name}: ${key} must be (an integer from|one of)`))
      }
    }
  })

  it('refuses out-of-range values with the environment’s own bounds and accepts those inside', () => {
    expect(() => createEnvironment('graph-menu', demo.workspace.ctx, { needTerms: 33 })).toThrow(/graph-menu: needTerms must be an integer from 0 to 32, got 33/)
    expect(() => createEnvironment('graph-menu', demo.workspace.ctx, { lookupScope: 'x' })).toThrow(/lookupScope must be one of entity, corpus/)
    expect(() => createEnvironment('free-query', demo.workspace.ctx, { maxQueryChars: 0 })).toThrow(/free-query: maxQueryChars must be an integer from 1 to 4000/)
    expect(() => createEnvironment('free-query', demo.workspace.ctx, { allowRepeatedQueries: 1 })).toThrow(/must be true or false/)
    expect(() => createEnvironment('graph-menu', demo.workspace.ctx, { needTerms: 32, maxLookup: 0, searchMode: 'hybrid' })).not.toThrow()
    expect(() => createEnvironment('free-query', demo.workspace.ctx, { maxQueryChars: 4000 })).not.toThrow()
  })
})
