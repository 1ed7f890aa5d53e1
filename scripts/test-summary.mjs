// Sums the vitest JSON results of every workspace package into one closing line.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const group of ["packages", "apps", "tooling"]) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) {
    const file = join(group, name, ".vitest-result.json");
    if (!existsSync(file)) continue;
    const result = JSON.parse(readFileSync(file, "utf8"));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    skipped += result.numPendingTests + result.numTodoTests;
    console.log(`${join(group, name)}: ${result.numPassedTests} passed, ${result.numFailedTests} failed`);
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
