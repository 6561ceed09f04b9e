/**
 * A start of the services that fails part way closes what it had opened: the CLI run inside a process, the
 * app retrying a data folder, and a test's cleanup must not meet the folder's databases still held open
 * (on a mount, "busy"). Linux only: the descriptors are read from /proc.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createServices } from '../../main/app/services'
import { sourceWorkerEntry } from '../../main/job-kinds/source-entry'
import { heldOpen } from '../helpers/open-files'
import { tempDir } from '../helpers/services'

const tmp = tempDir('harness-lab-start-failure-')
afterAll(() => tmp.cleanup())

describe.skipIf(process.platform !== 'linux')('services that fail to start', () => {
  it('close the app database they opened before the failure, and report the failure', async () => {
    const data = join(tmp.dir, 'data')
    const first = await createServices({ dataDir: data, worker: sourceWorkerEntry() })
    await first.close()
    expect(heldOpen(data)).toEqual([])
    // The job owners' folder replaced by a file: the app database opens, then the job manager cannot start.
    rmSync(join(data, 'job-owners'), { recursive: true, force: true })
    writeFileSync(join(data, 'job-owners'), 'not a folder')
    await expect(createServices({ dataDir: data, worker: sourceWorkerEntry() })).rejects.toThrow(/job-owners/)
    expect(heldOpen(data)).toEqual([])
  })
})
