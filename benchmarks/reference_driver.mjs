// Times River Reviewer's own store functions for `python -m benchmarks --reference`.
// Usage: node reference_driver.mjs <riverbed-memory.mjs>; one JSON job a line on stdin,
// one JSON result a line on stdout. Only the operation is timed, never parsing the job.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const memory = await import(pathToFileURL(process.argv[2]).href);

function run(job) {
  switch (job.op) {
    case 'load': {
      const index = memory.loadMemory(job.path);
      return memory.queryMemory(index, { type: 'pattern', tags: ['retry'] }).length;
    }
    case 'append':
      memory.appendEntry(job.path, job.entries[0]);
      return 1;
    case 'appends':
      for (const entry of job.entries) memory.appendEntry(job.path, entry);
      return job.entries.length;
    case 'expire':
      return memory.expireEntries(job.path);
    default:
      throw new Error(`unknown op ${job.op}`);
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  const job = JSON.parse(line);
  const start = process.hrtime.bigint();
  const count = run(job);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  process.stdout.write(`${JSON.stringify({ seconds, count })}\n`);
}
