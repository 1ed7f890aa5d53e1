// A router package written outside the Harness-S repository: it ranks siblings by id, last first.
export const routerPlugin = {
  specificationVersion: "v1",
  id: "reverse",
  description: "siblings in reverse order of their ids",
  createRouter() {
    return {
      specificationVersion: "v1",
      id: "reverse",
      async route(input) {
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
