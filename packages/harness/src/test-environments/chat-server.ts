import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the test server answers to one request. */
export type ChatServerReply = { content: string; delayMs?: number } | { status: number; body: string };

/** A chat-completions request as received. */
export interface ReceivedRequest {
  /** Model named in the request. */
  model: string;
  /** Messages sent. */
  messages: { role: string; content: string }[];
}

/**
 * Test equipment: a chat-completions server on 127.0.0.1 that answers each POST
 * `/v1/chat/completions` with the handler's reply, optionally after a delay.
 */
export async function startChatServer(handler: (request: ReceivedRequest, index: number) => ChatServerReply) {
  const requests: ReceivedRequest[] = [];
  const pending = new Set<ReturnType<typeof setTimeout>>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
        response.writeHead(404).end("not found");
        return;
      }
      const parsed = JSON.parse(body) as ReceivedRequest;
      requests.push(parsed);
      const reply = handler(parsed, requests.length - 1);
      if ("status" in reply) {
        response.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
        return;
      }
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: `test-${requests.length}`,
            object: "chat.completion",
            model: parsed.model,
            choices: [
              { index: 0, message: { role: "assistant", content: reply.content }, finish_reason: "stop" },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        );
      };
      if (reply.delayMs === undefined) send();
      else {
        const timer = setTimeout(() => {
          pending.delete(timer);
          send();
        }, reply.delayMs);
        pending.add(timer);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      for (const timer of pending) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
