import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTraceOutput } from "./statement-trace.js";
import { valueDefinitionLineCap, valuesLinesHeader, valuesTraceCommand } from "./values-trace.js";

const repository = mkdtempSync(join(tmpdir(), "hs-swegym-values-"));
afterAll(() => rmSync(repository, { recursive: true, force: true }));
mkdirSync(join(repository, "fares"));
mkdirSync(join(repository, "tests"));
writeFileSync(join(repository, "fares", "__init__.py"), "from .price import price, surcharge\n");
const zones = Array.from({ length: 20 }, (_, index) => `    "z${index + 1}": ${(index + 1) * 110},`);
writeFileSync(
  join(repository, "fares", "price.py"),
  [
    "import math",
    "",
    "BASE = {",
    ...zones,
    "}",
    "",
    "PEAK_FACTOR = 1.5",
    "",
    "HOURS = (7, 8, 9, 16, 17, 18)",
    "",
    "def price(zone, hour):",
    "    fare = BASE[zone]",
    "    if hour in HOURS:",
    "        fare = math.ceil(fare * PEAK_FACTOR)",
    "    return fare",
    "",
    "def surcharge(amount):",
    "    return amount + LEVY",
    "",
    "LEVY = 40",
    "",
  ].join("\n"),
);
writeFileSync(join(repository, "tests", "test_price.py"), "TABLE = {'z1': 0}\n");
const run = (command: string) => execFileSync("bash", ["-c", command], { cwd: repository, encoding: "utf8" });

describe("the values trace", () => {
  it("lists the module-level values the calls read, the table's looked-up entries only, in the trace's line format", () => {
    const output = run(valuesTraceCommand(JSON.stringify(['price("z3", 8)'])));
    const reading = readTraceOutput(output);
    expect(reading?.outcomes).toEqual(["=> 495"]);
    const values = output.slice(output.indexOf(valuesLinesHeader)).split("\n").slice(1, -1);
    expect(values).toEqual([
      "fares/price.py:3 x0\tBASE = {",
      'fares/price.py:6 x0\t    "z3": 330,',
      "fares/price.py:26 x0\tPEAK_FACTOR = 1.5",
      "fares/price.py:28 x0\tHOURS = (7, 8, 9, 16, 17, 18)",
    ]);
    // the executed lines come first, then the values: a reader of traces takes both as lines to look at
    expect(reading?.lines.map((line) => line.line)).toEqual([31, 32, 33, 34, 3, 6, 26, 28]);
  });

  it("shows a definition's first lines when no line holds a string the calls pass, and leaves the tests out", () => {
    const output = run(valuesTraceCommand(JSON.stringify(["surcharge(10)", "price(BASE_ZONE, 3)"]), false));
    const values = output.slice(output.indexOf(valuesLinesHeader)).split("\n").slice(1, -1);
    expect(values).toEqual(["fares/price.py:39 x0\tLEVY = 40"]);
    expect(output).toContain("raised NameError: name 'BASE_ZONE' is not defined");
    expect(output).not.toContain("repository lines the calls executed");
    const table = run(valuesTraceCommand(JSON.stringify(["price(list(BASE)[-1], 1)"])));
    const rows = table.slice(table.indexOf(valuesLinesHeader)).split("\n").slice(1, -1);
    expect(rows.slice(0, 2)).toEqual([
      "fares/price.py:3 x0\tBASE = {",
      'fares/price.py:4 x0\t    "z1": 110,',
    ]);
    expect(rows.filter((row) => row.includes('"z'))).toHaveLength(valueDefinitionLineCap - 1);
    expect(table).not.toContain("tests/");
  });

  it("prints nothing more when the calls read no module-level value", () => {
    const output = run(valuesTraceCommand(JSON.stringify(["len('abc')"])));
    expect(output).not.toContain(valuesLinesHeader);
    expect(readTraceOutput(output)?.outcomes).toEqual(["=> 3"]);
  });
});
