/**
 * Issue 34 part 5: each Harness-G environment declares its options' bounds beside its defaults
 * (ConfigBounds: a range for every number option, the values of every string option, asked for by the
 * compiler); the shared substrate holds only its own. A delta out of bounds is refused naming the key.
 * A number option is an integer unless the bounds name it as real (`reals`): then any finite value in
 * its range is taken, and NaN, Infinity or a value outside it is refused.
 */
import { describe, expect, it } from 'vitest'
import { createEnvironment, environmentFactory } from '../../main/harness'
import { checkConfig, type ConfigBounds } from '../../main/harness/sentence-substrate'
import { useDemoWorkspace } from '../helpers/corpus'

const demo = useDemoWorkspace(1, 0.3)

describe('Harness-G option bounds, declared by each environment', () => {
  it('every number and string option of graph-menu and free-query has a declared bound', () => {
    for (const name of ['graph-menu', 'free-query']) {
      for (const [key, value] of Object.entries(environmentFactory(name).defaults)) {
        if (typeof value === 'boolean') continue
        // One past any declared range, or an unknown string: refused by name, never taken for a boolean.
        const bad = typeof value === 'number' ? 1_000_000 : 'not-an-option'
        expect(() => createEnvironment(name, demo.workspace.ctx, { [key]: bad }), `${name}.${key}`).toThrow(new RegExp(`${name}: ${key} must be (an integer from|a number from|one of)`))
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

describe('real-valued options', () => {
  type Config = { temperature: number; turns: number; mode: 'a' | 'b'; on: boolean }
  const bounds: ConfigBounds<Config, 'temperature'> = { integers: { turns: [1, 10] }, reals: { temperature: [0, 2] }, choices: { mode: ['a', 'b'] } }
  const check = (delta: Record<string, unknown>) => () => checkConfig('toy', delta, bounds)

  it('a real option takes any finite value in its range, its ends included', () => {
    for (const temperature of [0.25, 0, 2, 1, 1e-9]) expect(check({ temperature }), String(temperature)).not.toThrow()
  })

  it('a real option refuses NaN, Infinity, non-numbers and values outside its range, naming the option and range', () => {
    expect(check({ temperature: Number.NaN })).toThrow('toy: temperature must be a number from 0 to 2, got NaN')
    expect(check({ temperature: Number.POSITIVE_INFINITY })).toThrow('toy: temperature must be a number from 0 to 2, got Infinity')
    expect(check({ temperature: 2.0001 })).toThrow('toy: temperature must be a number from 0 to 2, got 2.0001')
    expect(check({ temperature: -0.5 })).toThrow('toy: temperature must be a number from 0 to 2, got -0.5')
    expect(check({ temperature: '0.5' })).toThrow('toy: temperature must be a number from 0 to 2, got "0.5"')
  })

  it('an integer option still refuses 1.5 (and NaN), beside a real one', () => {
    expect(check({ turns: 1.5, temperature: 0.5 })).toThrow('toy: turns must be an integer from 1 to 10, got 1.5')
    expect(check({ turns: Number.NaN })).toThrow('toy: turns must be an integer from 1 to 10, got NaN')
    expect(check({ turns: 10, temperature: 1.75, mode: 'b', on: false })).not.toThrow()
  })

  it('the compiler asks for a range of every number option, in the table its kind names', () => {
    // @ts-expect-error the real option's range is missing
    const noReal: ConfigBounds<Config, 'temperature'> = { integers: { turns: [1, 10] }, reals: {}, choices: { mode: ['a', 'b'] } }
    // @ts-expect-error without naming it real, temperature needs an integer range
    const notNamed: ConfigBounds<Config> = { integers: { turns: [1, 10] }, reals: {}, choices: { mode: ['a', 'b'] } }
    // @ts-expect-error a real option has no integer range
    const both: ConfigBounds<Config, 'temperature'> = { integers: { turns: [1, 10], temperature: [0, 2] }, reals: { temperature: [0, 2] }, choices: { mode: ['a', 'b'] } }
    expect([noReal, notNamed, both]).toHaveLength(3)
  })
})
