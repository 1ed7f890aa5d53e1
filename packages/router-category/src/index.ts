export * from "./category-router.js";
