/**
 * Compact storage of an evaluation episode's steps: one brotli-compressed blob per episode instead
 * of one row per step holding the full JSON of the snapshot, menu, previews and decision.
 *
 * Each JSON column of a step is stored as a structural delta against the same column of the step
 * before (the snapshot of step 0 against the state after reset), so a snapshot that changes by one
 * curated sentence costs that sentence; text columns are interned (an observation or label seen
 * before is an index). Decoding gives back the very strings the row format stored, so readers of
 * the row format (runs.episode) return exactly what they returned before. encodeEpisodeSteps checks
 * this on every episode it writes and keeps a column verbatim where a delta would not reproduce it.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import { z } from 'zod'
import { jsonColumn } from '../../db/json-column'
import type { EpisodeStepTable } from '../../db/schema'
import { applyDelta, DeltaSchema, jsonDelta, jsonValue, type Json } from './episode-codec-delta'

/** A step as the row format stores it (episode_steps columns, less the episode id). */
export type StepColumns = Omit<EpisodeStepTable, 'episode_id'>

export interface EpisodeColumns {
  initialSnapshotJson: string | null
  steps: StepColumns[]
}

/** The JSON columns, each diffed against its value in the step before. */
const JSON_COLUMNS = ['actions_json', 'previews_json', 'action_json', 'decision_json', 'info_json', 'snapshot_json'] as const
type JsonColumn = (typeof JSON_COLUMNS)[number]

/**
 * A stored column: a delta against the previous value; interned text that is JSON as JSON.stringify
 * writes it ('j': it seeds the next delta, used where a delta would be nearly as long as the value,
 * a menu that changed wholesale); other interned text ('s'); or null (SQL null).
 */
const CellSchema = z.union([z.tuple([z.literal('d'), DeltaSchema]), z.tuple([z.literal('j'), z.number()]), z.tuple([z.literal('s'), z.number()]), z.null()])
type Cell = z.infer<typeof CellSchema>

/** A delta is kept when its JSON is at most this fraction of the value's. */
const DELTA_WORTH = 0.6

const EncodedSchema = z.object({
  v: z.literal(1),
  /** Interned strings: observations and verbatim cells refer to them by index. */
  strings: z.array(z.string()),
  initial: z.number().nullable(),
  steps: z.array(z.object({ t: z.number(), ms: z.number(), o: z.number(), c: z.array(CellSchema) })),
})
type Encoded = z.infer<typeof EncodedSchema>
/** The blob's body, checked on decode: a corrupt blob names its column rather than failing in a delta. */
const encodedBlob = jsonColumn('episodes.trajectory_blob', EncodedSchema)

const FORMAT = 0x01
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }

class Interner {
  readonly strings: string[] = []
  private readonly index = new Map<string, number>()
  id(s: string): number {
    let i = this.index.get(s)
    if (i === undefined) {
      i = this.strings.length
      this.strings.push(s)
      this.index.set(s, i)
    }
    return i
  }
}

const parse = (s: string | null): Json | undefined => (s === null ? undefined : jsonValue(s))

function encodeCell(previous: Json | undefined, value: string | null, strings: Interner): { cell: Cell; parsed: Json | undefined } {
  if (value === null) return { cell: null, parsed: undefined }
  let parsed: Json
  try {
    parsed = jsonValue(value)
  } catch {
    return { cell: ['s', strings.id(value)], parsed: undefined }
  }
  // A delta is exact only when the stored text is what JSON.stringify writes for its value.
  if (JSON.stringify(parsed) !== value) return { cell: ['s', strings.id(value)], parsed: undefined }
  const delta = jsonDelta(previous, parsed)
  if (delta === 0 || (delta[0] !== 'n' && JSON.stringify(delta).length <= DELTA_WORTH * value.length)) return { cell: ['d', delta], parsed }
  return { cell: ['j', strings.id(value)], parsed }
}

function decodeCell(previous: Json | undefined, cell: Cell, strings: readonly string[]): { text: string | null; parsed: Json | undefined } {
  if (cell === null) return { text: null, parsed: undefined }
  // A verbatim cell seeds no delta (as at encode time): the next one then carries its whole value.
  if (cell[0] === 's') return { text: strings[cell[1]]!, parsed: undefined }
  if (cell[0] === 'j') {
    const text = strings[cell[1]]!
    return { text, parsed: jsonValue(text) }
  }
  const parsed = applyDelta(previous, cell[1])
  return { text: JSON.stringify(parsed), parsed }
}

/** Compresses an episode's steps; throws if the result would not decode to exactly the input. */
export function encodeEpisodeSteps(episode: EpisodeColumns): Buffer {
  const strings = new Interner()
  const previous = new Map<JsonColumn, Json | undefined>()
  // Step 0's snapshot is diffed against the state after reset.
  previous.set('snapshot_json', parse(episode.initialSnapshotJson))
  const encoded: Encoded = {
    v: 1,
    strings: strings.strings,
    initial: episode.initialSnapshotJson === null ? null : strings.id(episode.initialSnapshotJson),
    steps: episode.steps.map((s) => {
      const c = JSON_COLUMNS.map((col) => {
        const { cell, parsed } = encodeCell(previous.get(col), s[col], strings)
        previous.set(col, parsed)
        return cell
      })
      return { t: s.t, ms: s.ms, o: strings.id(s.observation_text), c }
    }),
  }
  const body = brotliCompressSync(Buffer.from(JSON.stringify(encoded)), BROTLI)
  const blob = Buffer.concat([Buffer.from([FORMAT]), body])
  if (!sameEpisode(decodeEpisodeSteps(blob), episode)) throw new Error('episode codec: the compact form does not decode to the episode it was made from')
  return blob
}

export function decodeEpisodeSteps(blob: Uint8Array): EpisodeColumns {
  if (blob[0] !== FORMAT) throw new Error(`episode codec: unknown format ${blob[0]}`)
  const encoded = encodedBlob.read(brotliDecompressSync(blob.subarray(1)).toString('utf8'))
  const { strings } = encoded
  const initialSnapshotJson = encoded.initial === null ? null : strings[encoded.initial]!
  const previous = new Map<JsonColumn, Json | undefined>()
  previous.set('snapshot_json', parse(initialSnapshotJson))
  const steps = encoded.steps.map((s): StepColumns => {
    const texts = JSON_COLUMNS.map((col, i) => {
      const cell = s.c[i] ?? null
      const { text, parsed } = decodeCell(previous.get(col), cell, strings)
      previous.set(col, parsed)
      return text
    })
    return {
      t: s.t,
      observation_text: strings[s.o]!,
      actions_json: texts[0]!,
      previews_json: texts[1] ?? null,
      action_json: texts[2]!,
      decision_json: texts[3]!,
      info_json: texts[4]!,
      snapshot_json: texts[5]!,
      ms: s.ms,
    }
  })
  return { initialSnapshotJson, steps }
}

function sameEpisode(a: EpisodeColumns, b: EpisodeColumns): boolean {
  if (a.initialSnapshotJson !== b.initialSnapshotJson || a.steps.length !== b.steps.length) return false
  return a.steps.every((s, i) => {
    const o = b.steps[i]!
    return s.t === o.t && Object.is(s.ms, o.ms) && s.observation_text === o.observation_text && JSON_COLUMNS.every((col) => s[col] === o[col])
  })
}
