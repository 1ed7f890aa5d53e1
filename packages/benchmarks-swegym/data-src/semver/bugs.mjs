// Bugs of semver: a repository never trained on (every instance is in heldout-repos).
const v = "semver/version.py";
const r = "semver/ranges.py";
const tv = "tests/test_version.py";
const tr = "tests/test_ranges.py";

export const split = "heldout-repos";

export const bugs = [
  {
    created_at: "2024-09-02T09:00:00Z",
    problem_statement: `Pre-releases sort above their release

\`parse("1.0.0-alpha") > parse("1.0.0")\` is \`True\`, so \`max_satisfying\` and \`sorted()\` pick the alpha over the final release. SemVer says a pre-release has lower precedence than the release.`,
    inject: [
      {
        file: v,
        find: "    if not parts:\n        return (1,)",
        replace: "    if not parts:\n        return (-1,)",
      },
    ],
    tests: [
      {
        file: tv,
        append: `\n\ndef test_prerelease_below_release():\n    assert parse("1.0.0-alpha") < parse("1.0.0")\n    assert sorted([parse("1.0.0"), parse("1.0.0-rc.1")])[-1] == parse("1.0.0")\n`,
      },
    ],
  },
  {
    created_at: "2024-09-04T10:15:00Z",
    problem_statement: `Numeric pre-release identifiers rank above alphanumeric ones

\`parse("1.0.0-alpha.1") < parse("1.0.0-alpha.beta")\` is \`False\`. Per SemVer 2.0 item 11, numeric identifiers always have lower precedence than alphanumeric identifiers.`,
    inject: [
      {
        file: v,
        find: '            key.append((0, int(part), ""))',
        replace: '            key.append((2, int(part), ""))',
      },
    ],
    tests: [
      {
        file: tv,
        append: `\n\ndef test_numeric_identifier_below_alphanumeric():\n    assert parse("1.0.0-alpha.1") < parse("1.0.0-alpha.beta")\n`,
      },
    ],
  },
  {
    created_at: "2024-09-06T13:40:00Z",
    problem_statement: `rc.10 sorts before rc.9

\`parse("2.0.0-rc.10") > parse("2.0.0-rc.9")\` is \`False\`. Numeric pre-release parts are compared as text.`,
    inject: [
      {
        file: v,
        find: '            key.append((0, int(part), ""))',
        replace: "            key.append((0, 0, part))",
      },
    ],
    tests: [
      {
        file: tv,
        append: `\n\ndef test_numeric_prerelease_parts_compare_as_numbers():\n    assert parse("2.0.0-rc.10") > parse("2.0.0-rc.9")\n`,
      },
    ],
  },
  {
    created_at: "2024-09-09T08:30:00Z",
    problem_statement: `Build metadata changes equality

\`parse("1.0.0+build.1") == parse("1.0.0+build.2")\` is \`False\`, and the two end up as separate keys in a dict. Build metadata must be ignored when determining precedence.`,
    inject: [
      {
        file: v,
        find: "        return (self.major, self.minor, self.patch, _prerelease_key(self.prerelease))",
        replace:
          "        return (self.major, self.minor, self.patch, _prerelease_key(self.prerelease), self.build)",
      },
    ],
    tests: [
      {
        file: tv,
        append: `\n\ndef test_build_metadata_ignored():\n    assert parse("1.0.0+build.1") == parse("1.0.0+build.2")\n    assert len({parse("1.0.0+a"), parse("1.0.0+b")}) == 1\n`,
      },
    ],
  },
  {
    created_at: "2024-09-11T15:00:00Z",
    problem_statement: `bump("patch") on a pre-release skips the release

\`parse("1.2.3-rc.1").bump("patch")\` returns \`1.2.4\`. The next patch version after a release candidate of 1.2.3 is 1.2.3 itself.`,
    inject: [
      {
        file: v,
        find: "            if self.prerelease:\n                return Version(self.major, self.minor, self.patch)\n",
        replace: "",
      },
    ],
    tests: [
      {
        file: tv,
        append: `\n\ndef test_bump_patch_of_prerelease():\n    assert str(parse("1.2.3-rc.1").bump("patch")) == "1.2.3"\n    assert str(parse("1.2.3").bump("patch")) == "1.2.4"\n`,
      },
    ],
  },
  {
    created_at: "2024-09-13T11:25:00Z",
    problem_statement: `bump("major") keeps the minor version

\`parse("1.4.2").bump("major")\` returns \`2.4.0\`; it should be \`2.0.0\`.`,
    inject: [
      {
        file: v,
        find: "            return Version(self.major + 1, 0, 0)",
        replace: "            return Version(self.major + 1, self.minor, 0)",
      },
    ],
    tests: [
      {
        file: tv,
        append: `\n\ndef test_bump_major_resets():\n    assert str(parse("1.4.2").bump("major")) == "2.0.0"\n`,
      },
    ],
  },
  {
    created_at: "2024-09-16T09:50:00Z",
    problem_statement: `Tags with a leading "v" are rejected

Our git tags are like \`v1.2.3\`. \`parse("v1.2.3")\` raises \`VersionError: not a semantic version: 'v1.2.3'\`, while the range code already accepts \`v\` prefixes.`,
    inject: [{ file: v, find: '    r"^v?(0|[1-9]\\d*)', replace: '    r"^(0|[1-9]\\d*)' }],
    tests: [
      { file: tv, append: `\n\ndef test_leading_v():\n    assert parse("v1.2.3") == parse("1.2.3")\n` },
    ],
  },
  {
    created_at: "2024-09-18T14:05:00Z",
    problem_statement: `Numeric pre-release parts with leading zeros are accepted

\`parse("1.0.0-01")\` succeeds. SemVer 2.0 item 9 forbids leading zeros in numeric identifiers, and other tools reject this version, so we end up with tags nobody else can read.`,
    inject: [
      {
        file: v,
        find: '    for part in (prerelease or "").split("."):\n        if part.isdigit() and len(part) > 1 and part.startswith("0"):\n            raise VersionError(f"numeric pre-release part with a leading zero: {text!r}")\n',
        replace: "",
      },
    ],
    tests: [
      {
        file: tv,
        append: `\n\n@pytest.mark.parametrize("text", ["1.0.0-01", "1.0.0-rc.007"])\ndef test_leading_zero_prerelease_rejected(text):\n    with pytest.raises(VersionError):\n        parse(text)\n`,
      },
    ],
  },
  {
    created_at: "2024-09-20T10:35:00Z",
    problem_statement: `^0.2.3 matches 0.3.0

For 0.x versions a caret range should only allow patch updates: \`^0.2.3\` means \`>=0.2.3 <0.3.0\`. \`satisfies("0.3.0", "^0.2.3")\` returns \`True\`, and \`satisfies("0.9.0", "^0.2.3")\` too.`,
    inject: [
      { file: r, find: "    if major > 0 or minor is None:", replace: "    if major >= 0 or minor is None:" },
    ],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_caret_zero_major():\n    assert satisfies("0.2.9", "^0.2.3")\n    assert not satisfies("0.3.0", "^0.2.3")\n    assert not satisfies("0.0.4", "^0.0.3")\n`,
      },
    ],
  },
  {
    created_at: "2024-09-23T16:20:00Z",
    problem_statement: `~1.2.3 behaves like ^1.2.3

A tilde range should allow patch-level changes only, but \`satisfies("1.9.0", "~1.2.3")\` is \`True\`.`,
    inject: [
      {
        file: r,
        find: "    high = Version(major + 1, 0, 0) if minor is None else Version(major, minor + 1, 0)",
        replace: "    high = Version(major + 1, 0, 0)",
      },
    ],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_tilde_allows_patch_only():\n    assert satisfies("1.2.9", "~1.2.3")\n    assert not satisfies("1.3.0", "~1.2.3")\n    assert satisfies("1.9.0", "~1")\n`,
      },
    ],
  },
  {
    created_at: "2024-09-25T09:10:00Z",
    problem_statement: `Pre-releases match ordinary ranges

\`max_satisfying(["1.9.0", "2.0.0-beta.1"], ">=1.0.0")\` returns \`"2.0.0-beta.1"\`. A pre-release should only match a range that mentions a pre-release of the same version (as npm does); otherwise installs pick up betas.`,
    inject: [
      {
        file: r,
        find: "    if version.prerelease:\n        # A pre-release only matches a set that names a pre-release of the same major.minor.patch.\n",
        replace: "    if False:\n",
      },
    ],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_prerelease_excluded_by_default():\n    assert max_satisfying(["1.9.0", "2.0.0-beta.1"], ">=1.0.0") == "1.9.0"\n    assert satisfies("2.0.0-beta.2", ">=2.0.0-beta.1")\n`,
      },
    ],
  },
];
