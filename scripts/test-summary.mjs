// Sums the vitest JSON results of every workspace package (and the pack-check result, when present)
// into one closing line.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const group of ["packages", "apps", "tooling"]) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) {
    const file = join(group, name, ".vitest-result.json");
    const manifest = join(group, name, "package.json");
    const hasTests =
      existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).scripts?.test !== undefined;
    if (!existsSync(file)) {
      // a test run that died before writing its result counts as a failure, not as nothing
      if (hasTests) {
        failed += 1;
        console.log(`${join(group, name)}: no test result (the run did not finish), counted as 1 failed`);
      }
      continue;
    }
    const result = JSON.parse(readFileSync(file, "utf8"));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    skipped += result.numPendingTests + result.numTodoTests;
    console.log(`${join(group, name)}: ${result.numPassedTests} passed, ${result.numFailedTests} failed`);
    for (const line of failedTests(result)) console.log(`  failed: ${line}`);
  }
}
// Each failed test as "file > title: first line of its message", so a log cut to its end still names it.
function failedTests(result) {
  const lines = [];
  for (const file of result.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== "failed") continue;
      lines.push(
        `${relative(".", file.name)} > ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`,
      );
    }
    if (file.status === "failed" && (file.assertionResults ?? []).length === 0)
      lines.push(`${relative(".", file.name)}: ${firstLine(file.message)}`);
  }
  return lines;
}

function firstLine(text) {
  return (text ?? "").split("\n")[0].slice(0, 300);
}

// The packed-package smoke runs of scripts/pack-check.mjs (written by test-all.sh), one test per package.
if (existsSync(".pack-check-result.json")) {
  const result = JSON.parse(readFileSync(".pack-check-result.json", "utf8"));
  passed += result.passed;
  failed += result.failed;
  console.log(`pack-check: ${result.passed} passed, ${result.failed} failed`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
