import { OfflineAppWorldServer, type OfflineServerOptions } from "./offline-server.js";

/** A set of offline servers on 127.0.0.1, one per parallel episode. */
export class OfflineWorld {
  private readonly servers: OfflineAppWorldServer[] = [];

  constructor(private readonly options: OfflineServerOptions = {}) {}

  /** Starts `count` servers and returns their URLs. */
  async start(count: number): Promise<string[]> {
    const urls: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const server = new OfflineAppWorldServer(this.options);
      urls.push(await server.listen());
      this.servers.push(server);
    }
    return urls;
  }

  /** Stops every server (and its world). Safe to call twice. */
  async close(): Promise<void> {
    await Promise.all(this.servers.splice(0).map((server) => server.close()));
  }
}
