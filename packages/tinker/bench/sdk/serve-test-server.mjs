// Starts the local test server (test equipment) in one mode for the official Python SDK to talk to;
// prints its URL on the first line, and on SIGTERM/stdin end the requests it received as JSON lines.
//
// Usage (after `pnpm --filter @hs/tinker build`): node serve-test-server.mjs tinker|skyrl [--bodies]
import { TinkerTestServer } from "../../dist/server/index.js";

const mode = process.argv[2] ?? "tinker";
// pyqwest (the SDK's default HTTP transport) is not packaged for Debian: the server's flag turns it off,
// as Thinking Machines can for every client; the SDK then uses httpx's own transport.
const server = new TinkerTestServer({
  mode,
  baseModels: { "hs/tiny-bag-bigram": { vocabSize: 8, seed: 3 } },
  extraClientConfig: { use_pyqwest_transport: false },
});
const url = await server.start();
process.stdout.write(`${url}\n`);
const finish = async () => {
  for (const request of server.received) {
    const body = request.body;
    const seq = body?.seq_id === undefined ? "" : ` seq_id=${body.seq_id}`;
    const type = request.contentType?.includes("protobuf") ? " protobuf" : "";
    const row = { endpoint: request.endpoint, status: request.status ?? null, detail: `${seq}${type}` };
    const withBody = process.argv.includes("--bodies") ? { ...row, body } : row;
    process.stdout.write(`${JSON.stringify(withBody)}\n`);
  }
  await server.close();
  process.exit(0);
};
process.stdin.on("end", finish);
process.stdin.resume();
process.on("SIGTERM", finish);
