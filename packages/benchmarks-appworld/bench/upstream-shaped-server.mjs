// Starts upstream-shaped AppWorld environment servers (test equipment; see the README) on
// 127.0.0.1 and prints their URLs, comma-separated, for `hs ... --server-urls`. Stops on SIGINT/SIGTERM.
//   node bench/upstream-shaped-server.mjs [--root DIR] [--count N] [--port FIRST]
// The default root is the package's fixture dataset (src/upstream-shaped/__fixtures__/appworld-root).
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { UpstreamShapedServer } from "../dist/upstream-shaped/upstream-shaped-server.js";

const { values } = parseArgs({
  options: { root: { type: "string" }, count: { type: "string" }, port: { type: "string" } },
});
const root =
  values.root ?? fileURLToPath(new URL("../src/upstream-shaped/__fixtures__/appworld-root", import.meta.url));
const count = Number(values.count ?? "1");
const firstPort = Number(values.port ?? "0");
const servers = [];
for (let index = 0; index < count; index += 1) {
  const server = new UpstreamShapedServer({ root });
  await server.listen(firstPort === 0 ? 0 : firstPort + index);
  servers.push(server);
}
console.log(servers.map((server) => server.url).join(","));
const stop = async () => {
  await Promise.all(servers.map((server) => server.close()));
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
