/**
 * Every trainer recipe in the READMEs (resources/trainers/<trainer>/README.md, and the main README's dataset commands)
 * trains on the train split and evaluates on the test split: each `export-questions` command for a trainer writes one
 * file per split (`--split`), each training input a recipe names (verl's and Search-R1's `data.train_files`,
 * OpenRLHF's `--data.prompt_dataset`, TRL's `train_dataset=`) is the train split and each evaluation input
 * (`data.val_files`, `--eval.dataset`, `eval_dataset=`) the test split. A recipe that trains on a whole set, or
 * validates on its training questions, fails here by name.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TRAINERS = join(ROOT, 'resources', 'trainers')
const readmes = readdirSync(TRAINERS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => ({ name: d.name, text: readFileSync(join(TRAINERS, d.name, 'README.md'), 'utf8') }))

/** Where a recipe names its training and its evaluation questions (the value up to the next space, comma or closing parenthesis). */
const TRAIN = [/data\.train_files=("[^"]*"|\S+)/g, /--data\.prompt_dataset\s+("[^"]*"|\S+)/g, /\btrain_dataset=([^,)\n]*\)?)/g]
const EVAL = [/data\.val_files=("[^"]*"|\S+)/g, /--eval\.dataset\s+("[^"]*"|\S+)/g, /\beval_dataset=([^,)\n]*\)?)/g]
const SPLIT = /\b(train|dev|test|all)\b/

const uses = (text: string, patterns: RegExp[]) => patterns.flatMap((p) => [...text.matchAll(p)].map((m) => ({ value: m[1]!, split: SPLIT.exec(m[1]!)?.[1] ?? null })))
/** The `export-questions` commands in a text, with their continuation lines joined. */
const exportCommands = (text: string) => text.replace(/\\\n\s*/g, ' ').split('\n').filter((l) => /export-questions\s/.test(l) && /--format/.test(l))

describe('trainer README recipes train on train and evaluate on test', () => {
  it('finds the recipes: verl, OpenRLHF, TRL and Search-R1 each name training and evaluation inputs', () => {
    const names = readmes.filter((r) => uses(r.text, TRAIN).length > 0 && uses(r.text, EVAL).length > 0).map((r) => r.name)
    expect(names.sort()).toEqual(expect.arrayContaining(['openrlhf', 'search-r1', 'trl', 'verl']))
  })

  it.each(readmes.map((r) => [r.name, r.text] as const))('%s', (name, text) => {
    for (const command of exportCommands(text)) {
      const split = /--split\s+(\S+)/.exec(command)?.[1]
      expect(split, `${name}: ${command.trim()} writes the whole set: add --split train,test`).toBeDefined()
      expect(split!.split(','), `${name}: ${command.trim()}`).toEqual(expect.arrayContaining(['train', 'test']))
    }
    const train = uses(text, TRAIN)
    const evaluation = uses(text, EVAL)
    for (const t of train) expect(t.split, `${name}: trains on ${t.value}`).toBe('train')
    for (const e of evaluation) expect(e.split, `${name}: evaluates on ${e.value}`).toBe('test')
    // A recipe that trains also evaluates, on other questions.
    if (train.length > 0) expect(evaluation.length, `${name}: trains but names no test split to evaluate on`).toBeGreaterThan(0)
  })

  it("the main README's dataset commands write one file per split", () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const commands = exportCommands(text).filter((c) => /questions-(verl|searchr1|flashrag)/.test(c))
    expect(commands.length).toBeGreaterThan(0)
    for (const c of commands) expect(c, c.trim()).toMatch(/--split\s+\S*train\S*/)
  })
})
