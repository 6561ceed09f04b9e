import { parquetWriteBuffer } from 'hyparquet-writer'
import { defineFormat } from '../format'
import { questionRows, questionSetOrThrow } from '../question-rows'
import { dataSourceOf, verlRow, type VerlRow } from './question-datasets'

const text = (name: string) => ({ name, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const, repetition_type: 'OPTIONAL' as const })
const list = (name: string, children: number) => [
  { name, repetition_type: 'OPTIONAL' as const, converted_type: 'LIST' as const, num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
  ...(children === 0 ? [] : [{ name: 'element', repetition_type: 'OPTIONAL' as const, num_children: children }]),
]

/** verl's row schema with nested columns (list of message structs, reward_model and extra_info structs), as pandas/pyarrow write it. */
const SCHEMA = [
  { name: 'root', num_children: 5 },
  text('data_source'),
  ...list('prompt', 2), text('role'), text('content'),
  text('ability'),
  { name: 'reward_model', repetition_type: 'OPTIONAL' as const, num_children: 2 }, text('style'),
  { name: 'ground_truth', repetition_type: 'OPTIONAL' as const, num_children: 1 }, ...list('target', 0), { ...text('element') },
  { name: 'extra_info', repetition_type: 'OPTIONAL' as const, num_children: 4 },
  { name: 'index', type: 'INT64' as const, repetition_type: 'OPTIONAL' as const }, text('question_id'), { name: 'question_row_id', type: 'INT64' as const, repetition_type: 'OPTIONAL' as const }, text('split'),
]

/**
 * verl's row format as Parquet (what verl's RLHFDataset reads), written with hyparquet-writer. The
 * rows are built in memory: question sets are thousands of rows, not millions.
 */
export const questionsVerlParquet = defineFormat({
  name: 'questions-verl-parquet',
  source: 'questions',
  label: 'verl rows (Parquet)',
  description: "verl's row format as a Parquet file (nested prompt, reward_model and extra_info columns)",
  extension: 'parquet',
  contentType: 'application/vnd.apache.parquet',
  write({ raw, out, progress, checkpoint }, { questionSetId }) {
    const set = questionSetOrThrow(raw, questionSetId)
    const source = dataSourceOf(set.name)
    const rows: VerlRow[] = []
    for (const q of questionRows(raw, questionSetId)) rows.push(verlRow(q, rows.length, source))
    checkpoint()
    const column = <K extends keyof VerlRow>(name: K, map: (r: VerlRow) => unknown = (r) => r[name]) => ({ name, data: rows.map(map) })
    const buffer = parquetWriteBuffer({
      columnData: [
        column('data_source'),
        column('prompt'),
        column('ability'),
        column('reward_model'),
        column('extra_info', (r) => ({ ...r.extra_info, index: BigInt(r.extra_info.index), question_row_id: BigInt(r.extra_info.question_row_id) })),
      ],
      schema: SCHEMA,
      createdBy: 'harness-lab',
    })
    out.writeBytes(new Uint8Array(buffer))
    progress(rows.length, set.questions)
    return rows.length
  },
})
