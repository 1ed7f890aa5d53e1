"""AppWorld's TGC/SGC table, computed in Python as its evaluator states the rule.

Reads {task_id: {"success": bool, "difficulty": int}} on stdin and prints the rows of
`Metric.build_report` (ace-agent/ace-appworld src/appworld/evaluator.py:340-447) as JSON:
TGC = round(100 * round(mean(success), 4), 1), SGC the same over each scenario's minimum
(scenario = the task id before "_", tag removed), then both again over each difficulty's tasks.
Python's own round is used, so the TypeScript port can be held against it.
"""
import json
import sys


def percent(values):
    mean = round(sum(values) / len(values), 4) if values else 0
    return round(100 * mean, 1)


def goal_completion(tasks):
    by_scenario = {}
    for task_id, tracker in tasks.items():
        scenario = task_id.split(":")[0].split("_")[0]
        by_scenario.setdefault(scenario, []).append(float(tracker["success"]))
    every = [score for scores in by_scenario.values() for score in scores]
    return {
        "task_goal_completion": percent(every),
        "scenario_goal_completion": percent([min(scores) for scores in by_scenario.values()]),
    }


tasks = json.load(sys.stdin)
rows = {"aggregate": goal_completion(tasks)}
for level in (1, 2, 3):
    rows[f"difficulty_{level}"] = goal_completion(
        {task_id: tracker for task_id, tracker in tasks.items() if tracker["difficulty"] == level}
    )
print(json.dumps(rows))
