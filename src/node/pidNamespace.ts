import { spawn } from 'node:child_process';
import { withoutSecrets } from './commandEnvironment';

let probed: Promise<readonly string[] | undefined> | undefined;
let probedGuard: Promise<readonly string[]> | undefined;

/**
 * The argv prefix that starts a program as PID 1 of a new PID namespace with its own
 * `/proc` (util-linux `unshare`, as root directly, otherwise inside a user namespace
 * mapping the user to itself), or `undefined` where that does not work (not Linux, no
 * `unshare`, user namespaces disabled). When PID 1 of a namespace ends, the kernel kills
 * every process left in it, whatever session or parent it has; `--kill-child` ends PID 1
 * when `unshare` itself is killed, and `unshare` is killed when this process dies, even of
 * SIGKILL (see `parentDeathLauncher`), where the system allows it. Probed once per process
 * by starting `true` that way.
 */
export function pidNamespaceLauncher(): Promise<readonly string[] | undefined> {
  probed ??= probe();
  return probed;
}

/**
 * The argv prefix that makes the program it starts receive SIGKILL when this process dies,
 * however it dies (util-linux `setpriv --pdeathsig`, Linux's parent-death signal, kept
 * across the exec), or `[]` where that does not work (not Linux, no `setpriv`, one too old
 * for `--pdeathsig`). Only the program itself gets the signal, not what it starts; a program whose parent died
 * before the signal was set does not start (`orphanRefusal`). Probed once per process by starting `true` that way.
 */
export function parentDeathLauncher(): Promise<readonly string[]> {
  probedGuard ??= probeGuard();
  return probedGuard;
}

async function probeGuard(): Promise<readonly string[]> {
  if (process.platform !== 'linux') return [];
  const prefix = ['setpriv', '--pdeathsig', 'KILL', '--', ...orphanRefusal(process.pid)];
  return (await succeeds([...prefix, 'true'])) ? prefix : [];
}

/**
 * An argv prefix that runs what follows only while process `parent` is its parent: the parent-death signal holds from
 * the moment setpriv set it, so a parent that died before (an attack killed the CLI just as it started a command) left
 * an orphan that nothing would kill; it stops there instead (exit 125), before the program starts.
 */
export function orphanRefusal(parent: number): string[] {
  return ['sh', '-c', `[ "$PPID" = "${parent}" ] || exit 125; exec "$@"`, 'sh'];
}

async function probe(): Promise<readonly string[] | undefined> {
  if (process.platform !== 'linux') return undefined;
  const asRoot = process.getuid?.() === 0;
  // Without the parent-death signal, a CLI killed with SIGKILL (or a crashed editor) would leave unshare and its command running under init.
  const guard = await parentDeathLauncher();
  const unshare = ['unshare', ...(asRoot ? [] : ['--user', '--map-current-user']), '--fork', '--pid', '--kill-child', '--mount-proc', '--'];
  for (const prefix of guard.length > 0 ? [[...guard, ...unshare], unshare] : [unshare]) if (await succeeds([...prefix, 'true'])) return prefix;
  return undefined;
}

function succeeds(argv: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const [program, ...args] = argv as [string, ...string[]];
    // A probe of the system's own programs, yet no child gets the credentials the environment may hold.
    const child = spawn(program, args, { stdio: 'ignore', timeout: 5000, env: withoutSecrets(process.env) });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
