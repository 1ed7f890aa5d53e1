import { describe, expect, it } from "vitest";
import { detectDocker, dockerExecArguments, dockerRunArguments, sweGymImage } from "./docker-runtime.js";

describe("docker runtime command construction", () => {
  it("names SWE-Gym's image with __ as _s_, lower-cased", () => {
    expect(sweGymImage("getmoto__moto-7365")).toBe("xingyaoww/sweb.eval.x86_64.getmoto_s_moto-7365");
    expect(sweGymImage("Project-MONAI__MONAI-3001")).toBe(
      "xingyaoww/sweb.eval.x86_64.project-monai_s_monai-3001",
    );
  });

  it("starts the container as mini-swe-agent does, network off", () => {
    expect(dockerRunArguments("hs-1", "img").join(" ")).toBe(
      "run -d --name hs-1 -w /testbed --rm --network=none img sleep 2h",
    );
  });

  it("runs each command in bash -lc at /testbed with mini-swe-agent's env and a kill timeout", () => {
    const args = dockerExecArguments("hs-1", "ls -la", { login: true, timeLimitMs: 60_000 });
    expect(args.join(" ")).toBe(
      "exec -w /testbed -e PAGER=cat -e MANPAGER=cat -e LESS=-R -e PIP_PROGRESS_BAR=off -e TQDM_DISABLE=1 hs-1 timeout -s KILL 60s bash -lc ls -la",
    );
    expect(
      dockerExecArguments("c", "cat > /tmp/x", { login: false, timeLimitMs: 1500, interactive: true }).slice(
        0,
        2,
      ),
    ).toEqual(["exec", "-i"]);
  });
});

const docker = detectDocker();
if (!docker.available) console.warn(`docker live tests skipped: no docker daemon here (${docker.reason})`);

describe.skipIf(!docker.available)("docker runtime live", () => {
  it("the daemon answers", () => {
    expect(docker.reason).toMatch(/^docker server /);
  });
});
