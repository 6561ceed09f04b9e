/** Command line over the same services and API contract (`npm run cli -- workspace list`); one file per command group in cli/. */
import { Command } from 'commander'
import { registerCompareCommands } from './cli/compare'
import { registerCorpusCommands } from './cli/corpus'
import { cliContext, ownArgs, StorageFailure } from './cli/context'
import { registerEvalCommands } from './cli/eval'
import { registerGraphCommands } from './cli/graph'
import { registerJobCommands } from './cli/job'
import { registerModelCommands } from './cli/model'
import { registerQuestionCommands } from './cli/questions'
import { registerReproduceCommands } from './cli/reproduce'
import { registerRunCommands } from './cli/runs'
import { registerTrainCommands } from './cli/train'
import { registerWorkspaceCommands } from './cli/workspace'
import { DATA_DIR_ENV } from './config/paths'
import { storageClause, storageFailureOf, storageRemedy } from './db/storage-error'

const program = new Command().name('harness-lab').description('Harness Lab command line').option('-d, --data-dir <dir>', `data folder (default: $${DATA_DIR_ENV} or the OS app-data folder)`).option('--json', 'print JSON')
const cli = cliContext(program)

registerWorkspaceCommands(cli)
registerJobCommands(cli)
registerCorpusCommands(cli)
registerModelCommands(cli)
registerEvalCommands(cli)
registerRunCommands(cli)
registerTrainCommands(cli)
registerCompareCommands(cli)
registerQuestionCommands(cli)
registerGraphCommands(cli)
registerReproduceCommands(cli)

program.parseAsync().catch((err: unknown) => {
  console.error(`Error: ${errorLine(err)}`)
  process.exit(1)
})

/**
 * One line for any error, never a stack. A storage failure outside a job (the data folder's disk full
 * or read-only as the command itself writes) names the folder, its free space and the command again.
 */
function errorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err)
  const storage = err instanceof StorageFailure ? null : storageFailureOf(err)
  if (!storage) return message
  const folder = cli.dataDir()
  const what = message.includes(folder) ? message : `${storageClause(storage, folder)}: ${message}`
  return `${what}; ${storageRemedy(storage, cli.command(ownArgs()))}`
}
