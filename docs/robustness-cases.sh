#!/usr/bin/env bash
# Re-runs the data-loss, hang, silently-accepted and smaller-defect cases of the robustness probe
# against the built CLI and prints each command with what it prints now (docs/robustness.md).
# Usage: bash docs/robustness-cases.sh   (after pnpm build; writes only under a fresh temporary directory)
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
hs() { node "$here/apps/trainer/dist/cli.js" "$@"; }
world="$(mktemp -d /tmp/hs-robustness-XXXXXX)"
cd "$world" || exit 1
sed -n 41,44p "$here/packages/benchmarks-dbbench/data/dev.jsonl" >d1.jsonl
ln d1.jsonl d1h.jsonl
cp d1.jsonl b.jsonl
train=(train --bench dbbench --method grpo --data d1.jsonl --group-size 4 --prompts-per-step 2 --budget 8 --seed 3)
hs "${train[@]}" --out pol >/dev/null 2>&1

case_() {
  local name="$1"
  shift
  echo "### $name"
  echo "\$ hs $*"
  local output
  output="$(hs "$@" 2>&1)"
  local code=$?
  # the message only: a usage error's help text follows a blank line
  printf '%s\n' "$output" | awk 'NF == 0 { exit } { print }' | head -8
  echo "(exit $code)"
  echo
}
digest() { sha256sum "$@" | cut -c1-12; }

echo "## Data loss and hangs"
case_ "hard link of the input" eval --bench dbbench --data d1.jsonl --trajectories d1h.jsonl
case_ "trained weights as the output" eval --bench dbbench --data d1.jsonl --policy embedded:pol --trajectories pol/final/policy.json
case_ "the run's own trajectories as the output" export --run pol --format trl --out pol/trajectories.jsonl
case_ "a repeated option" eval --bench dbbench --data d1.jsonl --data b.jsonl --trajectories d1.jsonl
echo "d1.jsonl unchanged: $(cmp -s d1.jsonl b.jsonl && echo yes || echo NO)"
echo
start=$(date +%s)
case_ "export under /proc" export --run pol --format trl --out /proc/x/e.jsonl
echo "returned after $(($(date +%s) - start)) s"
echo

echo "### a full disk (a 256 KiB tmpfs in a private mount namespace)"
echo "\$ hs export --run pol --format trl --out FULL/e.jsonl   (FULL/e.jsonl held \"old\")"
unshare -r -m sh -c "mkdir -p full && mount -t tmpfs -o size=256k tmpfs full && echo old > full/e.jsonl \
  && dd if=/dev/zero of=full/filler bs=4k 2>/dev/null; node $here/apps/trainer/dist/cli.js export --run pol \
  --format trl --out full/e.jsonl; echo \"(exit \$?)\"; echo \"full/e.jsonl now: \$(cat full/e.jsonl)\"; \
  echo \"temporary files left: \$(ls -a full | grep -c '\\.tmp\$')\"" 2>&1
echo

echo "### a disk that fills during training (a 32 KiB tmpfs), then freed (remounted at 4 MiB)"
echo "\$ hs ${train[*]} --out FULL/run   (twice)"
unshare -r -m sh -c "mkdir -p full2 && mount -t tmpfs -o size=32k tmpfs full2; \
  node $here/apps/trainer/dist/cli.js ${train[*]} --out full2/run 2>&1 | tail -1; \
  echo \"FULL/run holds: [\$(ls -A full2/run)]\"; mount -o remount,size=4m full2; \
  node $here/apps/trainer/dist/cli.js ${train[*]} --out full2/run 2>&1 | tail -1" 2>&1
echo

echo "### quickstart on a cut pool.json"
mkdir -p qs-cut && head -c 200 "$here/apps/trainer/src/__fixtures__/bad-inputs/pool-good.json" >qs-cut/pool.json
case_ "cut pool" quickstart --out qs-cut --splits dev --seeds 1

echo "## Resume and silently accepted"
case_ "resume with another benchmark option" "${train[@]}" --out pol --protocol fc
mkdir -p qs-settings && cp "$here/apps/trainer/src/__fixtures__/bad-inputs/pool-good.json" qs-settings/pool.json
echo "{" >qs-settings/profiles.json
hs quickstart --out qs-settings --splits dev --seeds 1 --generations 3 >/dev/null 2>&1
case_ "quickstart resumed with other evolve settings" quickstart --out qs-settings --splits dev --seeds 1 --generations 5
cp -r pol running
node -e 'const fs=require("fs");const s=fs.readFileSync(`/proc/${process.ppid}/stat`,"utf8");const f=s.slice(s.lastIndexOf(")")+2).split(" ");fs.writeFileSync("running/.hs-run.lock",JSON.stringify({pid:process.ppid,startedAt:new Date().toISOString(),host:require("os").hostname(),processStart:Number(f[19]),command:"hs train --method grpo --seed 3"}))'
case_ "export of a running run" export --run running --format trl --out running-export.jsonl
printf '%s\n' \
  '{"description":"Who scored 3?","type":["other"],"table":{"table_name":"t","table_info":{"columns":[{"name":"a"}],"rows":[["x"]]}}}' \
  '{"description":"Add y.","type":["INSERT"],"label":[""],"table":{"table_name":"t","table_info":{"columns":[{"name":"a"}],"rows":[["x"]]}}}' >empty-labels.jsonl
case_ "DBBench records any empty answer passes" eval --bench dbbench --data empty-labels.jsonl
node -e 'const fs=require("fs");const r=JSON.parse(fs.readFileSync(process.argv[1],"utf8").split("\n")[0]);r.FAIL_TO_PASS=[];fs.writeFileSync("no-f2p.jsonl","\uFEFF"+JSON.stringify(r)+"\n")' "$here/packages/benchmarks-swegym/data/train.jsonl"
case_ "SWE-Gym instance with empty FAIL_TO_PASS (file with a BOM)" gold-replay --bench swegym --data no-f2p.jsonl

echo "## Crash and smaller defects"
small=(--methods grpo --seeds 1 --budget 8 --group-size 4 --prompts-per-step 2 --evolve-tasks 4 --rollouts 1
  --generations 0 --splits dev --workers 2)
echo "### a fresh quickstart --methods grpo, and a second one on the same --out 2 s later"
echo "\$ hs quickstart --out qs-small ${small[*]}   (and the same again, in parallel)"
hs quickstart --out qs-small "${small[@]}" >qs1.out 2>qs1.err &
first=$!
sleep 2
hs quickstart --out qs-small "${small[@]}" 2>&1 | head -2
echo "(second: exit ${PIPESTATUS[0]})"
wait "$first"
echo "(first: exit $?) $(cat qs1.out)"
grep -c 'ENOENT' qs1.err | sed 's/^/ENOENT lines in the first one'"'"'s log: /'
echo

case_ "budget below one group" quickstart --budget 3 --group-size 4 --splits dev --out qs-budget
echo "qs-budget created: $([ -e qs-budget ] && echo yes || echo no)"
echo
case_ "failed start" "${train[@]}" --out fresh --policy tinker:m --tinker-url http://127.0.0.1:9 --tokenizer none
echo "fresh/ holds: [$(ls -A fresh 2>/dev/null | tr '\n' ' ')]"
case_ "the corrected rerun" "${train[@]}" --out fresh
cp -r pol corrupt && head -c 30 pol/config.json >corrupt/config.json
case_ "corrupt config.json on resume" "${train[@]}" --out corrupt
case_ "unknown tool in a harness" eval --bench dbbench --data d1.jsonl --harness "$here/apps/trainer/src/__fixtures__/bad-inputs/harness-unknown-tool.json"
node -e 'const fs=require("fs");const l=fs.readFileSync(process.argv[1],"utf8").split("\n")[0];const r=JSON.parse(l);r.repo="elsewhere/lib";fs.writeFileSync("dup.jsonl",JSON.stringify(r)+"\n"+JSON.stringify(r)+"\n")' "$here/packages/benchmarks-swegym/data/train.jsonl"
case_ "SWE-Gym gold replay with a duplicate row" gold-replay --bench swegym --data dup.jsonl
printf 'not json\n' >bad.jsonl
case_ "gold replay with nothing loadable" gold-replay --bench dbbench --data bad.jsonl
hs evolve --bench dbbench --data d1.jsonl --rollouts 1 --generations 0 --out evolved/pool.json 2>/dev/null | grep '^base:'
echo "pool.evolution.json records: $(node -e 'const r=require(process.argv[1]);console.log(JSON.stringify({split:r.split,data:r.data}))' "$world/evolved/pool.evolution.json")"
echo
echo "### hs export --help"
hs export --help | grep -A1 'gradeDetails'
echo
echo "(scratch directory: $world)"
