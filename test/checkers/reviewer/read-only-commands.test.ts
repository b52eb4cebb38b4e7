/** Read-only exploration: what a reviewer reaches for passes; every option that writes or runs another program is refused. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideToolUse, reviewerPolicy } from '../../../src/checkers/reviewer/reviewer-policy.js';
import { sedScriptPrintsOnly } from '../../../src/checkers/reviewer/sed-script.js';

const policy = reviewerPolicy({ root: process.cwd(), tests: [], ruleCommands: [], allow: [] });
const judge = (command: string) => decideToolUse(policy, 'Bash', { command });

describe('read-only exploration', () => {
  it('allows what a reviewer reaches for', () => {
    for (const command of [
      "find . -name '*.js'",
      'find src -type f -newer package.json -print',
      'sed -n 1,40p src/index.ts',
      "sed -n '/^export/p' src/a.ts",
      "sed -n -e '10,20p' -e '$p' a.txt",
      "sed 's/foo/bar/g' a.txt",
      "sed -E -n 's/[0-9]x/y/p;/a/,/b/{p}' a",
      'git ls-files',
      'git grep -n foo',
      'git grep -n -e foo -- src',
      'git blame -L 1,20 src/a.ts',
      'git rev-parse HEAD',
      'git describe --tags --always',
      'git cat-file -p HEAD:package.json',
      'git ls-tree -r HEAD src',
      'git branch',
      'git branch -a -v',
      'git branch --list "feat*"',
      'git branch --contains HEAD',
      'git tag',
      'git tag -l "v1.*" --sort=-version:refname',
      'git --no-pager log --oneline -5',
      'git log -p -- src',
      'rg -n TODO src',
      'rg --files',
      'tree -L 2 src',
      'file package.json',
      'stat -c %s package.json',
      'sort -u names.txt',
      'sort -k2,2 -t, data.csv',
      'uniq -c names.txt',
      'uniq -f 1 names.txt',
      'cut -d: -f1 /etc/passwd',
      "jq '.scripts' package.json",
      "jq -r --rawfile text README.md '.name' package.json",
      'cat package.json | jq .name',
      'git ls-files | sort | uniq -c',
      'find . -name "*.py" | head -20',
    ]) {
      expect([command, judge(command).allow]).toEqual([command, true]);
    }
  });

  it('refuses every option that writes a file or runs another program', () => {
    for (const [command, because] of Object.entries({
      'find . -delete': 'may not delete',
      "find . -name '*.tmp' -exec rm {} \\;": 'may not delete',
      'find . -execdir sh -c x \\;': 'may not delete',
      'find . -ok rm {} \\;': 'may not delete',
      'find . -fprint out.txt': 'may not delete',
      'find . -fprintf out.txt %p': 'may not delete',
      'find . -fls out.txt': 'may not delete',
      'sed -i s/a/b/ f': 'may only print',
      'sed -ni p f': 'may only print',
      'sed --in-place=.bak s/a/b/ f': 'may only print',
      'sed -f script.sed f': 'may only print',
      "sed -n '1w out.txt' f": 'may only print',
      "sed 's/a/b/w out.txt' f": 'may only print',
      "sed 's/a/id/e' f": 'may only print',
      "sed '1e touch X' f": 'may only print',
      "sed -n 'r /etc/passwd' f": 'may only print',
      "sed 's/[/]/x/w out' f": 'may only print',
      'rg --pre ./evil x': 'preprocessors',
      'rg --pre=./evil x': 'preprocessors',
      'rg -z x': 'decompression',
      'rg -nz x': 'decompression',
      'rg --search-zip x': 'preprocessors',
      'tree -o out.txt': 'writes a file',
      'tree -aRH x': 'writes',
      'file -C -m magic': 'magic file',
      'file --compile': 'magic file',
      'sort -o sorted.txt names.txt': 'writes a file',
      'sort --output=sorted.txt names.txt': 'may not write',
      'sort -uo x names.txt': 'writes a file',
      'sort --compress-program=./evil names.txt': 'may not write',
      'sort -T . names.txt': 'temporary',
      'uniq names.txt out.txt': 'second file',
      'git -c core.pager=./evil log': 'git option `-c`',
      'git --exec-path=/tmp status': 'git option',
      'git -C /tmp/other status': 'git option',
      'git --git-dir=/tmp/x/.git log': 'git option',
      'git -p log': 'git option',
      'git grep --open-files-in-pager=vim foo': 'runs another program',
      'git grep -O foo': 'pager',
      'git grep -nO foo': 'pager',
      'git diff --ext-diff': 'runs another program',
      'git log -p --textconv': 'runs another program',
      'git cat-file --filters HEAD:x': 'runs another program',
      'git show --show-signature': 'runs another program',
      'git diff --output=patch.txt': 'runs another program',
      'git log -o x': 'writes a file',
      'git branch feature': 'only listing branches',
      'git branch -d main': 'only listing branches',
      'git branch --edit-description': 'only listing branches',
      'git tag v9': 'only listing tags',
      'git tag -d v1': 'only listing tags',
      'git checkout .': '`git checkout`',
      'git config core.pager x': '`git config`',
      'git fetch': '`git fetch`',
      'xargs rm': 'not a verification command',
      'cat x | sh': "read another command's output",
    })) {
      const decision = judge(command);
      expect([command, decision.allow, decision.reason]).toEqual([command, false, expect.stringContaining(because)]);
    }
  });

  it('reads a sed script the way sed does, with or without brackets protecting the delimiter (fuzzed)', () => {
    const part = fc.stringMatching(/^[a-z0-9 .*^$\\[\]/|,;{}!=~+-]{0,12}$/);
    const writer = fc.constantFrom('w out', 'W out', 'e', 'r /etc/passwd', 's/a/b/w out', 's/a/b/e', 's/a/b/gw out');
    fc.assert(fc.property(part, (script) => typeof sedScriptPrintsOnly(script) === 'boolean'));
    fc.assert(fc.property(fc.constantFrom('', '1', '$', '/x/', '1,5', '/a/,/b/'), writer, (address, command) => !sedScriptPrintsOnly(`${address}${command}`)));
    fc.assert(
      fc.property(
        fc.constantFrom('1p', '/x/p', 's/a/b/g', '1,5p', 'p'),
        fc.constantFrom(';', '; ', ';\t'),
        writer,
        (ok, sep, w) => !sedScriptPrintsOnly(`${ok}${sep}${w}`),
      ),
    );
  });
});
