// Bugs of cronsched: a repository never trained on (every instance is in heldout-repos).
const c = "cronsched/cron.py";
const s = "cronsched/scheduler.py";
const tc = "tests/test_cron.py";
const ts = "tests/test_scheduler.py";

export const split = "heldout-repos";

export const bugs = [
  {
    created_at: "2024-10-01T09:00:00Z",
    problem_statement: `Weekday schedules run one day late

\`CronExpression("0 9 * * mon").next_after(datetime(2024, 3, 3, 12, 0))\` (a Sunday) returns Tuesday 2024-03-05 09:00 instead of Monday 2024-03-04 09:00. Every weekday-based job is shifted by a day.`,
    inject: [
      {
        file: c,
        find: "        weekday = (moment.weekday() + 1) % 7  # cron counts from Sunday = 0",
        replace: "        weekday = moment.weekday()",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_monday_is_monday():\n    expression = CronExpression("0 9 * * mon")\n    assert expression.next_after(datetime(2024, 3, 3, 12, 0)) == datetime(2024, 3, 4, 9, 0)\n`,
      },
    ],
  },
  {
    created_at: "2024-10-03T10:30:00Z",
    problem_statement: `Day-of-week 7 is rejected

Many crontabs write Sunday as 7. \`CronExpression("0 0 * * 7")\` raises \`CronError: weekday value 7 outside 0-6\`; 7 should mean Sunday, like 0.`,
    inject: [
      { file: c, find: '    if field == "weekday" and number == 7:\n        return 0\n', replace: "" },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_seven_is_sunday():\n    assert parse_field("7", "weekday") == {0}\n    expression = CronExpression("0 0 * * 7")\n    assert expression.next_after(datetime(2024, 3, 1)) == datetime(2024, 3, 3, 0, 0)\n`,
      },
    ],
  },
  {
    created_at: "2024-10-07T14:15:00Z",
    problem_statement: `Upper-case day and month names are not accepted

\`CronExpression("0 8 * * MON-FRI")\` raises \`CronError: bad weekday value 'MON'\`. \`mon-fri\` works. Names should be case-insensitive, as in crontab(5).`,
    inject: [
      {
        file: c,
        find: "    if lowered in names:\n        return names[lowered]",
        replace: "    if text in names:\n        return names[text]",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_names_case_insensitive():\n    assert parse_field("MON-FRI", "weekday") == {1, 2, 3, 4, 5}\n    assert parse_field("Jan,DEC", "month") == {1, 12}\n`,
      },
    ],
  },
  {
    created_at: "2024-10-09T08:45:00Z",
    problem_statement: `A step after a single start value is ignored

\`parse_field("5/15", "minute")\` returns \`{5}\`. In cron, \`5/15\` means every 15 minutes starting at minute 5: \`{5, 20, 35, 50}\`.`,
    inject: [
      { file: c, find: "            end = high if step > 1 else start", replace: "            end = start" },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_step_from_a_start_value():\n    assert parse_field("5/15", "minute") == {5, 20, 35, 50}\n`,
      },
    ],
  },
  {
    created_at: "2024-10-11T16:00:00Z",
    problem_statement: `A step of zero crashes with a bare ValueError

\`CronExpression("*/0 * * * *")\` raises \`ValueError: range() arg 3 must not be zero\` from inside \`parse_field\`. It should raise \`CronError\` with the field named, like other bad expressions.`,
    inject: [
      {
        file: c,
        find: "            if not step_text.isdigit() or int(step_text) == 0:",
        replace: "            if not step_text.isdigit():",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_zero_step_is_cron_error():\n    with pytest.raises(CronError, match="step"):\n        CronExpression("*/0 * * * *")\n`,
      },
    ],
  },
  {
    created_at: "2024-10-14T11:10:00Z",
    problem_statement: `A backwards range is accepted and the job never runs

\`CronExpression("0 17-9 * * *")\` is accepted; its hour set is empty, so \`next_after\` searches five years and then raises. A range whose start is after its end should be rejected when the expression is read.`,
    inject: [
      {
        file: c,
        find: '            if start > end:\n                raise CronError(f"{field} range {part!r} runs backwards")\n',
        replace: "",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_backwards_range_rejected():\n    with pytest.raises(CronError):\n        CronExpression("0 17-9 * * *")\n`,
      },
    ],
  },
  {
    created_at: "2024-10-16T13:20:00Z",
    problem_statement: `Day-of-month and day-of-week together are ANDed instead of ORed

\`0 0 1 * mon\` should run on the 1st of every month and on every Monday (crontab(5): when both fields are restricted, either may match). It only runs on Mondays that fall on the 1st.`,
    inject: [
      {
        file: c,
        find: "        if self.day_restricted and self.weekday_restricted:\n            return day_ok or weekday_ok\n",
        replace: "",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_day_or_weekday():\n    expression = CronExpression("0 0 1 * mon")\n    assert expression.next_after(datetime(2024, 4, 2, 0, 0)) == datetime(2024, 4, 8, 0, 0)\n    assert expression.next_after(datetime(2024, 4, 29, 0, 0)) == datetime(2024, 5, 1, 0, 0)\n`,
      },
    ],
  },
  {
    created_at: "2024-10-18T09:35:00Z",
    problem_statement: `Yearly schedules skip their date

\`CronExpression("0 0 1 3 *").next_after(datetime(2024, 1, 15))\` does not return 2024-03-01 00:00; the search jumps past the first days of the month while skipping months that do not match.`,
    inject: [
      {
        file: c,
        find: "                candidate = (candidate.replace(day=1, hour=0, minute=0) + timedelta(days=32)).replace(day=1)",
        replace:
          "                candidate = candidate.replace(day=1, hour=0, minute=0) + timedelta(days=31)",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_month_skip_lands_on_first_day():\n    expression = CronExpression("0 0 1 3 *")\n    assert expression.next_after(datetime(2024, 1, 15)) == datetime(2024, 3, 1, 0, 0)\n`,
      },
    ],
  },
  {
    created_at: "2024-10-21T15:45:00Z",
    problem_statement: `Jobs due at the same minute run lowest priority first

With \`add("backup", "0 2 * * *", priority=10)\` and \`add("cleanup", "0 2 * * *", priority=1)\`, \`runs_between\` lists cleanup before backup at 02:00. The docstring says higher priority first.`,
    inject: [
      {
        file: s,
        find: "                runs.append((moment, -job.priority, job.name))",
        replace: "                runs.append((moment, job.priority, job.name))",
      },
    ],
    tests: [
      {
        file: ts,
        append: `\n\ndef test_higher_priority_first():\n    scheduler = Scheduler()\n    scheduler.add("cleanup", "0 2 * * *", priority=1)\n    scheduler.add("backup", "0 2 * * *", priority=10)\n    runs = scheduler.runs_between(datetime(2024, 1, 1), datetime(2024, 1, 1, 3, 0))\n    assert [name for _, name in runs] == ["backup", "cleanup"]\n`,
      },
    ],
  },
  {
    created_at: "2024-10-23T10:05:00Z",
    problem_statement: `runs_between() drops a run exactly at the end of the window

The window is documented as \`(start, end]\`, but \`runs_between(datetime(2024, 1, 1, 0, 0), datetime(2024, 1, 1, 1, 0))\` for an hourly job returns nothing: the 01:00 run is left out.`,
    inject: [
      { file: s, find: "                if moment > end:", replace: "                if moment >= end:" },
    ],
    tests: [
      {
        file: ts,
        append: `\n\ndef test_window_includes_end():\n    scheduler = Scheduler()\n    scheduler.add("hourly", "0 * * * *")\n    runs = scheduler.runs_between(datetime(2024, 1, 1, 0, 0), datetime(2024, 1, 1, 1, 0))\n    assert runs == [(datetime(2024, 1, 1, 1, 0), "hourly")]\n`,
      },
    ],
  },
  {
    created_at: "2024-10-25T12:40:00Z",
    problem_statement: `Adding a job with an existing name silently replaces it

\`scheduler.add("report", "0 6 * * *")\` followed by \`scheduler.add("report", "0 7 * * *")\` keeps only the 07:00 job and loses the first without an error. A duplicate name should raise.`,
    inject: [
      {
        file: s,
        find: '        if name in self._jobs:\n            raise ValueError(f"job {name!r} already exists")\n',
        replace: "",
      },
    ],
    tests: [
      {
        file: ts,
        append: `\n\ndef test_duplicate_name_rejected():\n    import pytest\n\n    scheduler = Scheduler()\n    scheduler.add("report", "0 6 * * *")\n    with pytest.raises(ValueError):\n        scheduler.add("report", "0 7 * * *")\n`,
      },
    ],
  },
];
