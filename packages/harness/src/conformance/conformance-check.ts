/** One check of a conformance kit. */
export interface ConformanceCheck {
  /** What was checked. */
  name: string;
  /** Whether it passed. */
  passed: boolean;
  /** What went wrong (empty when it passed). */
  detail: string;
}

/** Runs named checks, each returning its problems; a throw is a failed check, not a crash. */
export function createCheckRunner(): {
  checks: ConformanceCheck[];
  check: (name: string, body: () => Promise<string[]>) => Promise<void>;
} {
  const checks: ConformanceCheck[] = [];
  return {
    checks,
    async check(name, body) {
      try {
        const problems = await body();
        checks.push({ name, passed: problems.length === 0, detail: problems.join("; ") });
      } catch (error) {
        checks.push({
          name,
          passed: false,
          detail: `threw: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    },
  };
}

/** The failed checks of a report as lines for an error message. */
export function failedLines(checks: readonly ConformanceCheck[]): string {
  return checks
    .filter((entry) => !entry.passed)
    .map((entry) => `- ${entry.name}: ${entry.detail}`)
    .join("\n");
}
