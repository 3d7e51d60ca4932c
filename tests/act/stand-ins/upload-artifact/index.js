// upload-artifact v4.6.2's inputs, exactly: anything else fails the step, as a typo would
// fail to do what the caller meant on GitHub.
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");

const KNOWN = ["NAME", "PATH", "IF-NO-FILES-FOUND", "RETENTION-DAYS", "COMPRESSION-LEVEL",
  "OVERWRITE", "INCLUDE-HIDDEN-FILES"];
const fail = (message) => { console.log(`::error::upload-artifact stand-in: ${message}`); process.exit(1); };
const inputs = {};
for (const [key, value] of Object.entries(process.env)) {
  if (!key.startsWith("INPUT_")) continue;
  const name = key.slice(6).replace(/_/g, "-");
  if (!KNOWN.includes(name)) fail(`unexpected input ${name.toLowerCase()}`);
  inputs[name.toLowerCase()] = value;
}
if (!inputs.path) fail("input path is required");
const store = process.env.RIVERBED_ACT_ARTIFACTS;
if (!store) fail("RIVERBED_ACT_ARTIFACTS is not set");
const days = inputs["retention-days"];
if (days && !/^\d+$/.test(days)) fail(`retention-days ${days} is not a number`);
const files = inputs.path.split("\n").map((p) => p.trim()).filter(Boolean);
// A folder uploads the files in it, named relative to it (as v4 does); hidden ones only
// with include-hidden-files.
const visible = (f) => inputs["include-hidden-files"] === "true" || !path.basename(f).startsWith(".");
const expanded = files.flatMap((f) => (fs.existsSync(f) && fs.statSync(f).isDirectory()
  ? fs.readdirSync(f).map((n) => path.join(f, n)) : [f]));
const found = expanded.filter((f) => fs.existsSync(f) && fs.statSync(f).isFile() && visible(f));
if (found.length === 0) {
  const mode = inputs["if-no-files-found"] || "warn";
  if (mode === "error") fail(`no files were found with the provided path: ${inputs.path}`);
  if (mode === "warn") console.log(`::warning::no files were found with the provided path: ${inputs.path}`);
  process.exit(0);
}
const name = inputs.name || "artifact";
const dir = path.join(store, process.env.GITHUB_RUN_ID || "0", name);
if (fs.existsSync(dir) && inputs.overwrite !== "true") fail(`an artifact named ${name} already exists`);
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
const digest = crypto.createHash("sha256");
for (const file of found) {
  const data = fs.readFileSync(file);
  digest.update(data);
  fs.writeFileSync(path.join(dir, path.basename(file)), data);
}
fs.writeFileSync(path.join(dir, "received.json"), JSON.stringify({ inputs, event: process.env.GITHUB_EVENT_NAME }, null, 2));
const out = process.env.GITHUB_OUTPUT;
fs.appendFileSync(out, `artifact-id=${Date.now()}\nartifact-digest=${digest.digest("hex")}\nartifact-url=file://${dir}\n`);
console.log(`upload-artifact stand-in: stored ${found.length} file(s) as ${name}`);
