import { parquetWriteBuffer } from 'hyparquet-writer'
import type { ExportFormatDef } from '../format'
import { questionRows, questionSetOrThrow } from '../question-rows'
import { dataSourceOf, verlRow, type PromptVariant, type VerlRow } from './question-datasets'

const text = (name: string) => ({ name, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const, repetition_type: 'OPTIONAL' as const })
const int64 = (name: string) => ({ name, type: 'INT64' as const, repetition_type: 'OPTIONAL' as const })
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
  { name: 'extra_info', repetition_type: 'OPTIONAL' as const, num_children: 5 },
  int64('question_id'), text('set'), text('split'), int64('index'), text('external_id'),
]

/**
 * verl's row format as Parquet (what verl's RLHFDataset and Search-R1 read), written with
 * hyparquet-writer. The rows are built in memory: question sets are thousands of rows, not millions.
 */
export const verlParquet = <F extends 'questions-verl-parquet' | 'questions-searchr1-parquet'>(name: F, label: string, description: string, variant: PromptVariant, flavour: 'verl' | 'search-r1'): ExportFormatDef<F> => ({
  name,
  source: 'questions',
  label,
  description,
  extension: 'parquet',
  contentType: 'application/vnd.apache.parquet',
  write({ raw, out, progress, checkpoint }, params) {
    const { questionSetId, split } = params as { questionSetId: number; split?: string }
    const set = questionSetOrThrow(raw, questionSetId)
    const source = dataSourceOf(set, flavour)
    const rows: VerlRow[] = []
    for (const q of questionRows(raw, questionSetId, split)) rows.push(verlRow(q, source, variant))
    checkpoint()
    const column = <K extends keyof VerlRow>(key: K, map: (r: VerlRow) => unknown = (r) => r[key]) => ({ name: key, data: rows.map(map) })
    const buffer = parquetWriteBuffer({
      columnData: [
        column('data_source'),
        column('prompt'),
        column('ability'),
        column('reward_model'),
        column('extra_info', (r) => ({ question_id: BigInt(r.extra_info.question_id), set: r.extra_info.set, split: r.extra_info.split, index: BigInt(r.extra_info.index), external_id: r.extra_info.external_id })),
      ],
      schema: SCHEMA,
      createdBy: 'harness-lab',
    })
    out.writeBytes(new Uint8Array(buffer))
    progress(rows.length, set.questions)
    return rows.length
  },
})
