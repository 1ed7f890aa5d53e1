// A router package written outside the Harness-S repository: it ranks siblings by id, last first, and
// notes each creation and call in the file REVERSE_ROUTER_LOG names, for the test that loads it.
import { appendFileSync } from "node:fs";

export const routerPlugin = {
  specificationVersion: "v1",
  id: "reverse",
  description: "siblings in reverse order of their ids",
  createRouter() {
    const log = process.env.REVERSE_ROUTER_LOG;
    const note = (line) => {
      if (log !== undefined) appendFileSync(log, `${line}\n`);
    };
    note("created");
    return {
      specificationVersion: "v1",
      id: "reverse",
      async route(input) {
        note(`routed ${input.failedGroup.length}`);
        const ids = input.pool.siblings
          .map((sibling) => sibling.id)
          .sort()
          .reverse();
        const ranking = ids.map((harnessId, index) => ({
          harnessId,
          score: ids.length - index,
          reasons: ["reverse order of ids"],
        }));
        return { ranking, selected: ids.slice(0, input.k) };
      },
    };
  },
};
