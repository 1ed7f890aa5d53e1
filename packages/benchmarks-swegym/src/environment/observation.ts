/**
 * mini-swe-agent v1.17's observation texts (SWE-agent/mini-swe-agent@v1.17.0
 * src/minisweagent/config/extra/swebench.yaml `action_observation_template`, agents/default.py
 * `timeout_template`, `has_finished`), rendered as its Jinja templates render them.
 */

/** Outputs of at least this many characters are shown as head and tail. */
export const observationLimitChars = 10_000;
/** Characters of the head and of the tail of a long output. */
export const observationEdgeChars = 5_000;
/** The first output line that submits (either spelling `has_finished` accepts). */
export const submitSentinels = [
  "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",
  "MINI_SWE_AGENT_FINAL_OUTPUT",
] as const;

const longOutputWarning = `<warning>
The output of your last command was too long.
Please try a different command that produces less output.
If you're looking at a file you can try use head, tail or sed to view a smaller number of lines selectively.
If you're using grep or find and it produced too much output, you can use a more selective search pattern.
If you really need to see something from the full command's output, you can redirect output to a file and then search in that file.
</warning>`;

/** `<returncode>` and `<output>`, or the warning with the first and last 5,000 characters. */
export function renderObservation(returncode: number, output: string): string {
  const characters = Array.from(output);
  if (characters.length < observationLimitChars) {
    return `<returncode>${returncode}</returncode>\n<output>\n${output}</output>`;
  }
  const head = characters.slice(0, observationEdgeChars).join("");
  const tail = characters.slice(-observationEdgeChars).join("");
  const elided = characters.length - observationLimitChars;
  return (
    `<returncode>${returncode}</returncode>\n${longOutputWarning}<output_head>\n${head}\n</output_head>\n` +
    `<elided_chars>\n${elided} characters elided\n</elided_chars>\n<output_tail>\n${tail}\n</output_tail>`
  );
}

/** The message after a command that hit its time limit (the episode goes on). */
export function renderTimeout(command: string, output: string): string {
  return (
    `The last command <command>${command}</command> timed out and has been killed.\n` +
    `The output of the command was:\n <output>\n${output}\n</output>\n` +
    "Please try another command and make sure to avoid those requiring interactive input."
  );
}

/** The submission when the output's first non-blank line is a sentinel (the rest of the output), else null. */
export function readSubmission(output: string): string | null {
  const lines = output.trimStart().split(/(?<=\n)/);
  const first = lines[0];
  if (first === undefined || !(submitSentinels as readonly string[]).includes(first.trim())) return null;
  return lines.slice(1).join("");
}
