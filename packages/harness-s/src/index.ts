export * from "./default-router.js";
export * from "./method-rescue.js";
export * from "./method-selection.js";
export * from "./train-method.js";
