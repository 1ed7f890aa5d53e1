import { changeScenarios } from "./change-scenarios.js";
import { crossAppScenarios } from "./cross-app-scenarios.js";
import { oneAppScenarios } from "./one-app-scenarios.js";
import { questionScenarios } from "./question-scenarios.js";
import type { ScenarioDefinition } from "./scenario.js";

/** Every scenario of the offline world. */
export const scenarioCatalog: readonly ScenarioDefinition[] = [
  ...oneAppScenarios,
  ...questionScenarios,
  ...changeScenarios,
  ...crossAppScenarios,
];
