import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';

// Counts the times a file is opened, with inotify (IN_OPEN): the kernel queues the event at
// the open itself, so a count asked for after the open is exact, with no waiting.
const watcher = `
import ctypes, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(os.O_NONBLOCK)
if fd < 0 or libc.inotify_add_watch(fd, sys.argv[1].encode(), 0x20) < 0:
    sys.exit(3)
print('ready', flush=True)
for _ in sys.stdin:
    opened = 0
    while True:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            break
        at = 0
        while at < len(data):
            _, mask, _, length = struct.unpack_from('iIII', data, at)
            at += 16 + length
            opened += 1 if mask & 0x20 else 0
    print(opened, flush=True)
`;

/** Counts the opens of one file since the previous count. */
export interface OpenWatcher {
  opensSinceLastCount(): Promise<number>;
  stop(): void;
}

/** Watches `file` for opens; `undefined` where python3 or inotify is not available. */
export async function watchOpens(file: string): Promise<OpenWatcher | undefined> {
  if (spawnSync('python3', ['-c', 'import ctypes'], { stdio: 'ignore' }).status !== 0) return undefined;
  const child: ChildProcessWithoutNullStreams = spawn('python3', ['-c', watcher, file]);
  const lines: Interface = createInterface({ input: child.stdout });
  const next = (): Promise<string | undefined> =>
    new Promise((resolve) => {
      const onLine = (line: string): void => {
        child.off('exit', onExit);
        resolve(line);
      };
      const onExit = (): void => {
        lines.off('line', onLine);
        resolve(undefined);
      };
      lines.once('line', onLine);
      child.once('exit', onExit);
    });
  if ((await next()) !== 'ready') return undefined;
  return {
    async opensSinceLastCount() {
      const answer = next();
      child.stdin.write('count\n');
      return Number(await answer);
    },
    stop() {
      child.kill('SIGKILL');
    },
  };
}
