export * from "./client/clock.js";
export * from "./client/errors.js";
export * from "./client/futures.js";
export * from "./client/tinker-client.js";
export * from "./client/transport.js";
export * from "./protocol/datum.js";
export * from "./protocol/replies.js";
export * from "./protocol/requests.js";
