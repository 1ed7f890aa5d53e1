// Reads a JSONL file record by record, in chunks: a run's trajectories.jsonl can pass the 512 MB one
// string can hold (a SWE-Gym run of 1,024 rollouts writes about 580 MB, every step keeping its view).
import { closeSync, openSync, readSync } from "node:fs";

const newline = 0x0a;

/** Each record of a JSONL file, in order, blank lines skipped; a line that is not JSON is named by file and line. */
export function* jsonlRecords(file, chunkBytes = 1 << 24) {
  const descriptor = openSync(file, "r");
  const chunk = Buffer.alloc(chunkBytes);
  let pending = [];
  let line = 0;
  const record = (parts) => {
    line += 1;
    const text = Buffer.concat(parts).toString("utf8");
    if (text.trim() === "") return [];
    try {
      return [JSON.parse(text)];
    } catch (error) {
      throw new Error(`${file}:${line}: not a JSON line (${error.message})`);
    }
  };
  try {
    for (let read = readSync(descriptor, chunk); read > 0; read = readSync(descriptor, chunk)) {
      let start = 0;
      for (
        let end = chunk.indexOf(newline, start);
        end !== -1 && end < read;
        end = chunk.indexOf(newline, start)
      ) {
        yield* record([...pending, chunk.subarray(start, end)]);
        pending = [];
        start = end + 1;
      }
      pending.push(Buffer.from(chunk.subarray(start, read)));
    }
    yield* record(pending);
  } finally {
    closeSync(descriptor);
  }
}
