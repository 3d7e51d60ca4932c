// One River Reviewer store operation as a fresh runner makes it, for `python -m benchmarks
// --reference`: node reference_driver.mjs <riverbed-memory.mjs> <op> <index> [<entries.json>].
// The clock starts once the module is imported and stops when the operation returns, as in
// benchmarks/fresh_child.py; one process per sample. Prints {"seconds": …, "count": …}.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [moduleFile, op, indexPath, entriesFile] = process.argv.slice(2);
const entries = op === 'append' ? JSON.parse(readFileSync(entriesFile, 'utf8')) : [];
const memory = await import(pathToFileURL(moduleFile).href);

function run() {
  switch (op) {
    case 'load': {
      const index = memory.loadMemory(indexPath);
      return memory.queryMemory(index, { type: 'pattern', tags: ['retry'] }).length;
    }
    case 'append':
      memory.appendEntry(indexPath, entries[0]);
      return 1;
    case 'expire':
      return memory.expireEntries(indexPath);
    default:
      throw new Error(`unknown operation ${op}`);
  }
}

const start = process.hrtime.bigint();
const count = run();
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
process.stdout.write(`${JSON.stringify({ seconds, count })}\n`);
process.exit(0);
