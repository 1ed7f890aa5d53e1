// Bugs of iniconf: each injects a bug into the fixed tree (data/repos/iniconf) and adds the tests that expose it.
const p = "iniconf/parser.py";
const c = "iniconf/config.py";
const tp = "tests/test_parser.py";
const tc = "tests/test_config.py";

export const bugs = [
  {
    split: "train",
    created_at: "2024-05-06T09:10:00Z",
    problem_statement: `URLs with a fragment are cut at the '#'

With

\`\`\`ini
[links]
docs = https://example.org/guide#install
\`\`\`

\`config.get("links", "docs")\` returns \`https://example.org/guide\`. A \`#\` inside a value is not a comment; only \`#\`/\`;\` at the start of a line or after whitespace should start one.`,
    inject: [
      {
        file: p,
        find: 'if char in ";#" and (index == 0 or line[index - 1].isspace()):',
        replace: 'if char in ";#":',
      },
    ],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_hash_inside_value_is_kept():\n    config = loads("[links]\\ndocs = https://example.org/guide#install ; trailing comment\\n")\n    assert config.get("links", "docs") == "https://example.org/guide#install"\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-05-08T13:40:00Z",
    problem_statement: `Keys written with capitals cannot be read

A file with \`MaxConnections = 20\` under \`[pool]\` loads, but \`config.get("pool", "maxconnections")\` and \`config.get("pool", "MaxConnections")\` both raise \`ConfigError: no key 'maxconnections'\`. Keys are meant to be case-insensitive.`,
    inject: [
      { file: p, find: "key = line[:separator].strip().lower()", replace: "key = line[:separator].strip()" },
    ],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_keys_case_insensitive():\n    config = loads("[pool]\\nMaxConnections = 20\\n")\n    assert config.get_int("pool", "MaxConnections") == 20\n    assert config.get_int("pool", "maxconnections") == 20\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-05-10T10:00:00Z",
    problem_statement: `'key: value' lines are rejected

The README of our deployment tool says both \`key = value\` and \`key: value\` work, but \`loads("[a]\\nname: demo\\n")\` raises \`ConfigError: line 2: expected 'key = value', got 'name: demo'\`.`,
    inject: [
      {
        file: p,
        find: 'separator = min((line.find(char) for char in "=:" if char in line), default=-1)',
        replace: 'separator = line.find("=")',
      },
    ],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_colon_separator():\n    assert loads("[a]\\nname: demo\\n").get("a", "name") == "demo"\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-05-13T15:25:00Z",
    problem_statement: `A URL value is split at its colon

\`\`\`ini
[db]
dsn = postgres://db.internal:5432/app
\`\`\`

\`config.get("db", "dsn")\` raises \`ConfigError: no key 'dsn' in section 'db'\`; the section instead has a key \`dsn = postgres\` with value \`//db.internal:5432/app\`. The first \`=\` or \`:\` on the line should separate key and value.`,
    inject: [
      {
        file: p,
        find: 'separator = min((line.find(char) for char in "=:" if char in line), default=-1)',
        replace: 'separator = max((line.find(char) for char in "=:" if char in line), default=-1)',
      },
    ],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_first_separator_wins():\n    config = loads("[db]\\ndsn = postgres://db.internal:5432/app\\n")\n    assert config.get("db", "dsn") == "postgres://db.internal:5432/app"\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-05-15T08:50:00Z",
    problem_statement: `Multi-line values keep only their last line

\`\`\`ini
[mail]
recipients = ops@example.org
    dev@example.org
    qa@example.org
\`\`\`

\`config.get_list("mail", "recipients")\` returns only \`["qa@example.org"]\`. Indented continuation lines should be appended to the value.`,
    inject: [
      {
        file: p,
        find: 'sections[current][last_key] += "\\n" + _strip_comment(raw).strip()',
        replace: "sections[current][last_key] = _strip_comment(raw).strip()",
      },
    ],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_continuation_lines():\n    config = loads("[mail]\\nrecipients = a@x.org\\n    b@x.org\\n    c@x.org\\n")\n    assert config.get_list("mail", "recipients") == ["a@x.org", "b@x.org", "c@x.org"]\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-05-17T11:05:00Z",
    problem_statement: `has() says False for keys that come from DEFAULT

\`config.get("s", "timeout")\` returns the DEFAULT value, but \`config.has("s", "timeout")\` is \`False\`, so our code skips a setting that is actually there.`,
    inject: [
      {
        file: c,
        find: 'return key in self._sections.get(section, {}) or key in self._sections["DEFAULT"]',
        replace: "return key in self._sections.get(section, {})",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_has_sees_defaults():\n    config = loads("timeout = 5\\n[s]\\nname = x\\n")\n    assert config.has("s", "timeout")\n    assert not config.has("s", "missing")\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-05-21T14:15:00Z",
    problem_statement: `References to another section do not resolve

\`\`\`ini
[paths]
root = /srv
[app]
logs = \${paths.root}/logs
\`\`\`

\`config.get("app", "logs")\` raises \`ConfigError: no key 'root' in section 'app'\`. \`\${root}\` inside \`[paths]\` works.`,
    inject: [
      {
        file: c,
        find: "return self.get(ref_section or section, ref_key, _depth=_depth + 1)",
        replace: "return self.get(section, ref_key, _depth=_depth + 1)",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_interpolation_other_section():\n    config = loads("[paths]\\nroot = /srv\\n[app]\\nlogs = \${paths.root}/logs\\n")\n    assert config.get("app", "logs") == "/srv/logs"\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-05-23T09:35:00Z",
    problem_statement: `A reference loop crashes with RecursionError

\`loads("[s]\\na = \${b}\\nb = \${a}\\n").get("s", "a")\` raises \`RecursionError: maximum recursion depth exceeded\`. It should be a \`ConfigError\` that names the loop, like other config mistakes.`,
    inject: [
      {
        file: c,
        find: '        if _depth > 10:\n            raise ConfigError(f"reference loop at {section}.{key}")\n',
        replace: "",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_reference_loop_is_config_error():\n    config = loads("[s]\\na = \${b}\\nb = \${a}\\n")\n    with pytest.raises(ConfigError):\n        config.get("s", "a")\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-05-27T16:00:00Z",
    problem_statement: `get_list() returns empty items for a trailing comma

\`loads("[s]\\ntags = a, b,\\n").get_list("s", "tags")\` returns \`["a", "b", ""]\`. Empty items should be dropped, as the docstring says.`,
    inject: [
      { file: c, find: "        return [item for item in items if item]", replace: "        return items" },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_list_drops_empty_items():\n    assert loads("[s]\\ntags = a, b,\\n").get_list("s", "tags") == ["a", "b"]\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-05-29T10:45:00Z",
    problem_statement: `get_int() ignores its default

\`config.get_int("server", "workers", 4)\` raises \`ConfigError: no key 'workers' in section 'server'\` when the key is absent, instead of returning 4. \`get()\` with a default works.`,
    inject: [
      {
        file: c,
        find: "    def get_int(self, section, key, default=_MISSING):\n        value = self.get(section, key, default)",
        replace:
          "    def get_int(self, section, key, default=_MISSING):\n        value = self.get(section, key)",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_get_int_default():\n    assert loads("[server]\\n").get_int("server", "workers", 4) == 4\n`,
      },
    ],
  },
];
