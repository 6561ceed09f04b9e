/** One case of bench:ingest-hostile section 5 in its own process: `<format> <worker|thread> <rows> <runs> <dir>`; prints its figures as JSON. */
import { measureInChild, type ImportWay, type QuestionFormat } from './question-import-figures'

const [format, way, rows, runs, dir] = process.argv.slice(2)
const figures = await measureInChild(format as QuestionFormat, way as ImportWay, Number(rows), Number(runs), dir!)
console.log(JSON.stringify(figures))
