import type { HarnessConfig, ToolCall, ToolSpec } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";

/** The tools a harness shows and how each shown tool maps onto environment calls. */
export interface ToolExposure {
  /** Tools offered to the policy (exposed environment tools, then macros). */
  visible: ToolSpec[];
  /** Environment calls for a policy call, or null when the tool is not offered. */
  resolve(call: ToolCall): ToolCall[] | null;
}

function fillArguments(value: unknown, args: Readonly<Record<string, unknown>>): unknown {
  if (typeof value !== "string") return value;
  const whole = /^\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)?)\}$/.exec(value);
  if (whole?.[1] !== undefined && whole[1] in args) return args[whole[1]];
  return value.replace(/\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)?)\}/g, (text, name: string) =>
    name in args
      ? typeof args[name] === "string"
        ? (args[name] as string)
        : JSON.stringify(args[name])
      : text,
  );
}

/**
 * Tool exposure (section `tools`): a subset of the environment's tools plus macro tools
 * built from them; a macro step's string arguments may use `{param}` (the macro's arguments) and
 * `{metadata.KEY}` (the task's public metadata). Names that do not exist in the environment are rejected up front.
 */
export function createToolExposure(
  section: HarnessConfig["tools"],
  environmentTools: readonly ToolSpec[],
  metadata: Readonly<Record<string, unknown>> = {},
): ToolExposure {
  const metadataFields = Object.fromEntries(
    Object.entries(metadata).map(([key, value]) => [`metadata.${key}`, value]),
  );
  const byName = new Map(environmentTools.map((tool) => [tool.name, tool]));
  section.expose?.forEach((name, index) => {
    if (!byName.has(name)) {
      throw new InvalidInputError(
        `tool "${name}" is not offered by the environment (it has ${[...byName.keys()].join(", ")})`,
        {
          field: `tools.expose.${index}`,
        },
      );
    }
  });
  section.macros.forEach((macro, macroIndex) => {
    macro.steps.forEach((step, stepIndex) => {
      if (!byName.has(step.tool)) {
        throw new InvalidInputError(`macro "${macro.name}" calls unknown environment tool "${step.tool}"`, {
          field: `tools.macros.${macroIndex}.steps.${stepIndex}.tool`,
        });
      }
    });
  });
  const exposed =
    section.expose === null
      ? [...environmentTools]
      : environmentTools.filter((tool) => section.expose?.includes(tool.name));
  const macros = new Map(section.macros.map((macro) => [macro.name, macro]));
  const visible: ToolSpec[] = [
    ...exposed,
    ...section.macros.map((macro) => ({
      name: macro.name,
      description: macro.description,
      parameters: macro.parameters,
    })),
  ];
  const exposedNames = new Set(exposed.map((tool) => tool.name));
  return {
    visible,
    resolve(call) {
      const macro = macros.get(call.name);
      if (macro !== undefined) {
        return macro.steps.map((step, index) => ({
          id: `${call.id}.${index}`,
          name: step.tool,
          arguments: Object.fromEntries(
            Object.entries(step.arguments).map(([key, value]) => [
              key,
              fillArguments(value, { ...metadataFields, ...call.arguments }),
            ]),
          ),
        }));
      }
      return exposedNames.has(call.name) ? [call] : null;
    },
  };
}
