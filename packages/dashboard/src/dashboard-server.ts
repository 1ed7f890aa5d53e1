import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { createDirectoryReader } from "./directory-reader.js";
import { trajectoryFilterSchema } from "./trajectory-summary.js";
import { vendorScript } from "./vendor-scripts.js";

/** Options of `startDashboard`. */
export interface DashboardOptions {
  /** Run or experiment directories to show. */
  directories: readonly string[];
  /** Port (default 0: any free port). */
  port?: number;
  /** Address to listen on (default 127.0.0.1: this machine only). */
  host?: string;
  /** Whether the server alone keeps the process running (default true; false beside other work). */
  keepAlive?: boolean;
}

/** A running dashboard. */
export interface Dashboard {
  /** Its address, e.g. `http://127.0.0.1:8123/`. */
  url: string;
  /** Stops serving. */
  close(): Promise<void>;
}

const runQuerySchema = z.object({ directory: z.coerce.number().int().nonnegative(), run: z.string() });
const pageFile = new URL("../assets/dashboard.html", import.meta.url);
const scriptFile = new URL("../assets/dashboard.js", import.meta.url);

function send(response: ServerResponse, status: number, type: string, body: string | Buffer) {
  response.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
  });
  response.end(body);
}

const sendJson = (response: ServerResponse, status: number, value: unknown) =>
  send(response, status, "application/json; charset=utf-8", JSON.stringify(value));

/**
 * Serves the dashboard page, the chart libraries from the installed packages, and a JSON API over the
 * directories: `/api/state` (every directory as of now), `/api/trajectories` (a filtered page of a
 * run's trajectory summaries) and `/api/trajectory` (one whole trajectory).
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const readers = options.directories.map((directory) => createDirectoryReader(directory));
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://dashboard");
    const query = Object.fromEntries(url.searchParams);
    if (request.method !== "GET") return sendJson(response, 405, { error: "only GET is served" });
    if (url.pathname === "/")
      return send(response, 200, "text/html; charset=utf-8", await readFile(pageFile));
    if (url.pathname === "/dashboard.js")
      return send(response, 200, "text/javascript; charset=utf-8", await readFile(scriptFile));
    const vendor = /^\/vendor\/(vega|vega-lite)\.js$/.exec(url.pathname);
    if (vendor !== null)
      return send(response, 200, "text/javascript; charset=utf-8", await vendorScript(vendor[1] as "vega"));
    if (url.pathname === "/api/state")
      return sendJson(response, 200, {
        directories: await Promise.all(readers.map((reader) => reader.view())),
      });
    const target = runQuerySchema.safeParse(query);
    if (url.pathname === "/api/trajectories" || url.pathname === "/api/trajectory") {
      const filter = trajectoryFilterSchema.safeParse(query);
      if (!target.success || !filter.success)
        return sendJson(response, 400, {
          error: `bad query: ${(target.error ?? filter.error)?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
        });
      const reader = readers[target.data.directory];
      if (reader === undefined) return sendJson(response, 404, { error: "no such directory" });
      if (url.pathname === "/api/trajectories") {
        const page = reader.trajectories(target.data.run, filter.data);
        return page === null
          ? sendJson(response, 404, { error: "no such run" })
          : sendJson(response, 200, page);
      }
      const trajectory = await reader.trajectory(target.data.run, query.id ?? "");
      return trajectory === null
        ? sendJson(response, 404, { error: `no trajectory ${query.id ?? "(no id)"} in that run` })
        : sendJson(response, 200, trajectory);
    }
    return sendJson(response, 404, { error: `nothing at ${url.pathname}` });
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  if (options.keepAlive === false) server.unref();
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
