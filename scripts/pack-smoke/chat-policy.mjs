import { createChatPolicy } from "@hs/chat-policy";
import { startChatServer } from "@hs/harness/test-environments";

// Test equipment: a chat-completions server on 127.0.0.1 (node:http) answering with a text action.
const server = await startChatServer((request) => ({
  content: `Final Answer: ${request.messages.at(-1).content.length}`,
}));
try {
  const policy = createChatPolicy({ baseURL: server.baseURL, model: "smoke-model", env: {} });
  const view = { actionFormat: "text", tools: [], messages: [{ role: "user", content: "Count me." }] };
  const action = await policy.act(view, { seed: 0 });
  if (action.content !== "Final Answer: 9") throw new Error(`unexpected content ${action.content}`);
  if (server.requests.length !== 1 || server.requests[0].model !== "smoke-model")
    throw new Error(`server saw ${JSON.stringify(server.requests)}`);
  console.log(`chat-policy: one completion over HTTP from ${server.baseURL} -> "${action.content}"`);
} finally {
  await server.close();
}
