/** Variables a sandboxed command may inherit from the caller: none carries a secret. */
export const inheritedVariables = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM"] as const;

/**
 * The whole environment of a sandboxed command: the allow-listed variables of `from` and then
 * `variables`. Nothing else passes, so API keys (TINKER_API_KEY, OPENAI_API_KEY...), tokens and
 * proxies of the caller never reach agent code.
 */
export function sandboxEnvironment(
  variables: Record<string, string>,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of inheritedVariables) {
    const value = from[name];
    if (value !== undefined) environment[name] = value;
  }
  return { ...environment, ...variables };
}
