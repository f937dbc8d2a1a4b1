import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes an executable shell script at `file` (its folders made) running `body`. */
export function plantProgram(file: string, body = 'echo planted'): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

/** Makes `dir` a Python virtual environment as far as the runner can tell: `pyvenv.cfg` and `bin/`. */
export function makeVirtualEnvironment(dir: string): void {
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'pyvenv.cfg'), 'home = /usr/bin\n');
}
