import { spawn } from 'node:child_process';

let probed: Promise<readonly string[] | undefined> | undefined;

/**
 * The argv prefix that starts a program as PID 1 of a new PID namespace with its own
 * `/proc` (util-linux `unshare`, as root directly, otherwise inside a user namespace
 * mapping the user to itself), or `undefined` where that does not work (not Linux, no
 * `unshare`, user namespaces disabled). When PID 1 of a namespace ends, the kernel kills
 * every process left in it, whatever session or parent it has; `--kill-child` ends PID 1
 * when `unshare` itself is killed. Probed once per process by starting `true` that way.
 */
export function pidNamespaceLauncher(): Promise<readonly string[] | undefined> {
  probed ??= probe();
  return probed;
}

async function probe(): Promise<readonly string[] | undefined> {
  if (process.platform !== 'linux') return undefined;
  const asRoot = process.getuid?.() === 0;
  const prefix = ['unshare', ...(asRoot ? [] : ['--user', '--map-current-user']), '--fork', '--pid', '--kill-child', '--mount-proc', '--'];
  return (await succeeds([...prefix, 'true'])) ? prefix : undefined;
}

function succeeds(argv: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const [program, ...args] = argv as [string, ...string[]];
    const child = spawn(program, args, { stdio: 'ignore', timeout: 5000 });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
