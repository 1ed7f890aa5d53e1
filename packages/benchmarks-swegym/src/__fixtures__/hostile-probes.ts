/** What a hostile probe is aimed at, on the host. */
export interface HostileTargets {
  /** A host file outside the workspace the probes try to overwrite. */
  hostFile: string;
  /** A file under the host's /tmp (hidden by the sandbox's own /tmp) the probes try to read. */
  hiddenFile: string;
  /** A TCP port listening on the host's 127.0.0.1. */
  hostPort: number;
  /** The repository root (data-src, data/train.jsonl). */
  repositoryRoot: string;
}

/** Each escape a hostile agent running as root could try, as one probe: its name and the mechanism that is to stop it. */
export const hostileProbes = {
  capabilities: "a user namespace as uid 65534 with --cap-drop ALL: CapEff is 0",
  "remount-write":
    "no CAP_SYS_ADMIN: mount(2) is refused, so / stays read-only and the host file is not bound",
  "umount-tmp":
    "no CAP_SYS_ADMIN (umount refused); /tmp is the sandbox's own tmpfs, the host's /tmp is not mounted",
  "nsenter-host-net":
    "own pid namespace and /proc (no host process is listed), no capability for setns, --unshare-net",
  "repository-files":
    "only /usr, /bin, /lib*, a part of /etc and the workspace are mounted; not the repository",
  "environment-keys": "the environment is an allow-list (PATH, LANG...), no caller keys",
  "memory-3gb": "the workspace's memory cgroup (2 GiB by default; RLIMIT_AS where no cgroup can be made)",
  "processes-300": "the workspace's pids cgroup (256 by default)",
  "nested-user-namespace": "--disable-userns: no user namespace can be made inside",
} as const;

/** A probe's name. */
export type HostileProbe = keyof typeof hostileProbes;

/**
 * A bash script that tries every escape and prints `PROBE <name> blocked|ESCAPED <detail>` per probe;
 * the same script runs as an agent command and from a conftest.py during grading.
 */
export function hostileScript(targets: HostileTargets): string {
  const connect = `import socket,sys\ntry:\n    socket.create_connection(('127.0.0.1', ${targets.hostPort}), 2); print('connected')\nexcept OSError as e:\n    print('refused', e)`;
  const spawn =
    "import subprocess\nps = []\ntry:\n    for i in range(300): ps.append(subprocess.Popen(['sleep', '20']))\nexcept OSError as e:\n    print('refused', e)\nprint(len(ps))\nfor p in ps: p.kill()";
  return `#!/bin/bash
probe() { if [ "$2" = ok ]; then echo "PROBE $1 ESCAPED $3"; else echo "PROBE $1 blocked $3"; fi; }
cap=$(grep CapEff /proc/self/status | cut -f2)
probe capabilities "$([ "$cap" = 0000000000000000 ] && echo no || echo ok)" "CapEff=$cap"
out=$(mount -o remount,bind,rw / 2>&1); rc=$?
echo pwned 2>/dev/null > '${targets.hostFile}'; wrote=$?
echo pwned 2>/dev/null > /etc/hs-hostile; etc=$?
probe remount-write "$([ $rc = 0 ] || [ $wrote = 0 ] || [ $etc = 0 ] && echo ok || echo no)" "mount rc=$rc write rc=$wrote /etc rc=$etc $(echo $out | head -c 80)"
out=$(umount -l /tmp 2>&1); rc=$?
secret=$(cat '${targets.hiddenFile}' 2>/dev/null)
probe umount-tmp "$([ -n "$secret" ] && echo ok || echo no)" "umount rc=$rc read=\${#secret} bytes"
umount -l /proc 2>/dev/null
reached=no
for ns in /proc/[0-9]*/ns/net; do
  r=$(nsenter --net="$ns" python3 -c "${connect}" 2>&1)
  case "$r" in connected*) reached=ok ;; esac
done
r=$(python3 -c "${connect}" 2>&1)
case "$r" in connected*) reached=ok ;; esac
probe nsenter-host-net $reached "pids=$(ls -d /proc/[0-9]* | wc -l) direct=$(echo $r | head -c 60)"
files=$(cat '${targets.repositoryRoot}'/packages/benchmarks-swegym/data-src/*/bugs.mjs 2>/dev/null | wc -c)
gold=$(git -C '${targets.repositoryRoot}' show HEAD:packages/benchmarks-swegym/data/train.jsonl 2>/dev/null | wc -c)
homes=$(ls /work /root /home 2>/dev/null | wc -l)
probe repository-files "$([ "$files" -gt 0 ] || [ "$gold" -gt 0 ] || [ "$homes" -gt 0 ] && echo ok || echo no)" "bugs.mjs=$files train.jsonl=$gold homes=$homes"
keys=$(env | grep -c -E '^(TINKER_API_KEY|OPENAI_API_KEY)=')
probe environment-keys "$([ "$keys" -gt 0 ] && echo ok || echo no)" "keys=$keys"
r=$(python3 -c "b = b'x' * (3 * 1024 ** 3); print('allocated', len(b))" 2>&1); rc=$?
probe memory-3gb "$(case "$r" in allocated*) echo ok ;; *) echo no ;; esac)" "rc=$rc $(echo $r | tail -c 60)"
r=$(python3 -c "${spawn}" 2>&1 | tail -1)
probe processes-300 "$([ "$r" = 300 ] && echo ok || echo no)" "started=$r"
unshare -r true 2>/dev/null; rc=$?
probe nested-user-namespace "$([ $rc = 0 ] && echo ok || echo no)" "unshare rc=$rc"
`;
}

/** Probe name -> `blocked` or `ESCAPED` with its detail, read from output holding `PROBE` lines. */
export function probeOutcomes(output: string): Map<string, { outcome: string; detail: string }> {
  const outcomes = new Map<string, { outcome: string; detail: string }>();
  for (const match of output.matchAll(/PROBE (\S+) (blocked|ESCAPED) ?(.*)/g))
    outcomes.set(match[1] as string, { outcome: match[2] as string, detail: match[3] as string });
  return outcomes;
}

/** A patch that creates each file (git's new-file form). */
export function newFilesPatch(files: Record<string, string>): string {
  return Object.entries(files)
    .map(([path, content]) => {
      const lines = content.endsWith("\n") ? content.slice(0, -1).split("\n") : content.split("\n");
      const body = lines.map((line) => `+${line}`).join("\n");
      return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${body}\n`;
    })
    .join("");
}
