/**
 * Harness-1 counts its renderings section by section (budget.ts joinedCounter, remembered across degradation
 * levels and turns): the count must equal cl100k's count of the joined text, on hand-made edge cases and on
 * every rendering of real episodes at a tight and at the published context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countTokens } from '../../main/corpus/tokens'
import { environmentContext, runEpisode, type Policy } from '../../main/harness'
import { CL100K_COUNTER, STATEFUL_DEFAULTS, StatefulEnvironment } from '../../main/harness/stateful'
import { joinedCounter, SECTION_SEPARATOR, type TokenCounter } from '../../main/harness/stateful/budget'
import { ScriptedToolPolicy } from '../../main/policy/scripted'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

describe('section-by-section token counts of Harness-1 renderings', () => {
  let demo: DemoWorkspace
  beforeAll(async () => {
    demo = await openDemoWorkspace(3, 0.5)
  }, 120_000)
  afterAll(async () => demo?.close())

  it('equal the count of the joined text, whatever the sections end or start with', () => {
    const joined = joinedCounter(CL100K_COUNTER)
    const cases: string[][] = [
      ['# Question\nWho founded it?', '# Status\nTurn 1 of 16.', '[Context: 120/8192]'],
      ['ends with punctuation.', 'ends with a digit 1990', "ends with a quote'", 's starts with a letter'],
      ['trailing spaces   ', '#next', 'trailing newline\n', '[x]'],
      ['unicode café ', 'Ünïcödé — dash…', '日本語のテキスト。', '→ arrow'],
      ['leading space follows', ' starts with a space', 'x'],
      ['an empty section follows', '', 'after it'],
      ['newline start follows', '\nstarts with a newline'],
      ['one'],
    ]
    for (const sections of cases) expect(joined(sections), JSON.stringify(sections)).toBe(countTokens(sections.join(SECTION_SEPARATOR)))
    // Another tokenizer's pre-tokenizer may differ: its joined text is counted as it is.
    const chars: TokenCounter = { name: 'chars', count: (t) => t.length }
    expect(joinedCounter(chars)(['ab', 'c'])).toBe(5)
  })

  it('gives every rendering of real episodes (every turn) the count of its text, at tight and at the published context', async () => {
    let checked = 0
    for (const contextTokens of [1500, 2500, STATEFUL_DEFAULTS.contextTokens]) {
      for (const transcript of [false, true]) {
        const env = new StatefulEnvironment(environmentContext(demo.db.raw), { ...STATEFUL_DEFAULTS, contextTokens, ...(transcript ? { transcript: true, autoSeed: false, budgetMarkers: true } : {}) })
        // The policy checks the rendering it is shown at every turn, then acts as scripted-tools.
        const inner = new ScriptedToolPolicy()
        const checking: Policy = {
          name: 'checking',
          reset: (episode) => inner.reset(episode),
          act: (observation, actions) => {
            const r = env.snapshot().rendered
            expect(r.tokens).toBe(countTokens(r.text))
            checked++
            return inner.act(observation, actions)
          },
        }
        for (const q of demo.questions.slice(0, 6)) await runEpisode(env, checking, q, 1, { snapshots: false })
      }
    }
    expect(checked).toBeGreaterThan(100)
  }, 300_000)
})
