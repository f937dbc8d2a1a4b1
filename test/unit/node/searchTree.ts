import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { maxSearchFileBytes } from '../../../src/core/tools/searchTextTool';

/**
 * A workspace (`root`, inside the temporary `base`) that tests every rule of a search:
 * ignore files at two levels, files other tools' ignore files name, hidden files,
 * `node_modules` and `.git`, links to files inside and outside, a linked directory leading
 * out, binary files, a NUL past the binary check, Latin-1 bytes, a file over the size
 * limit, CRLF lines and odd names. The caller removes `base`.
 */
export function makeSearchTree(): { base: string; root: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-rg-'));
  const root = path.join(base, 'root');
  const files: Record<string, string> = {
    'root/.gitignore': 'ignored/\n*.log\n!keep.log\n',
    'root/src/.gitignore': 'local.ts\n',
    'root/src/a.ts': 'const a = 1;\nlet x = NEEDLE;\r\nNEEDLE at start\n',
    'root/src/b.ts': 'nothing\nneedle in lower case\nNEEDLEé and more\n',
    'root/src/local.ts': 'NEEDLE ignored below\n',
    'root/.hidden/h.md': 'a hidden NEEDLE\n',
    'root/ignored/x.ts': 'NEEDLE',
    'root/app.log': 'NEEDLE',
    'root/keep.log': 'NEEDLE kept',
    'root/node_modules/m/index.js': 'NEEDLE',
    'root/deep/node_modules/n.js': 'NEEDLE',
    'root/.git/config': 'NEEDLE',
    'root/-dash.txt': '-e NEEDLE --files',
    'root/.ignore': '*.md\n',
    'root/.rgignore': 'keep.log\n',
    'root/new\nline.txt': 'a NEEDLE in a file whose name holds a newline\n',
    'root/bin.dat': 'NEEDLE\u0000\u0001',
    'root/late-nul.txt': `${'x'.repeat(9000)}\u0000\nNEEDLE after a late NUL\n`,
    'outside/secret.txt': 'NEEDLE secret',
    'outside/dir/secret.ts': 'NEEDLE secret',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
    fs.writeFileSync(path.join(base, file), text);
  }
  fs.writeFileSync(path.join(root, 'latin1.txt'), Buffer.from([0x4e, 0x45, 0x45, 0x44, 0x4c, 0x45, 0xe9, 0x21, 0x0a]));
  fs.writeFileSync(path.join(root, 'huge.txt'), `NEEDLE${'x'.repeat(maxSearchFileBytes)}`);
  fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(root, 'src/out-link.txt'));
  fs.symlinkSync(path.join(base, 'outside/dir'), path.join(root, 'out-dir'));
  fs.symlinkSync('a.ts', path.join(root, 'src/in-link.ts'));
  return { base, root };
}

/** `search_text` inputs that exercise every matching rule over `makeSearchTree`. */
export const searchQueries = [
  { query: 'NEEDLE' },
  { query: 'needle', caseSensitive: false, contextLines: 1 },
  { query: '-e NEEDLE' },
  { query: 'NEEDLE;$', regex: true },
  { query: '^NEEDLE\\w*', regex: true },
  { query: 'NEEDLE\\W', regex: true },
  { query: 'needle.?(in|at)', regex: true, caseSensitive: false },
  { query: 'NEEDLE', glob: 'src/*.ts' },
  { query: 'NEEDLE', maxMatches: 2 },
  { query: 'NEEDLE\uFFFD!' },
];
