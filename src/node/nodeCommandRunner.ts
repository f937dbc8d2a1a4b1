import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { CommandResult, CommandRunner } from '../core/commandPorts';
import { programName } from '../core/tools/commandAllowRules';
import { resolveInRoot } from '../core/workspace/resolveInRoot';
import { withoutSecrets, withSafeGitConfig } from './commandEnvironment';
import { findInFolders, findProgram } from './findProgram';
import { readGitRepositoryPrograms } from './gitRepositoryConfiguration';
import { shownRepositoryPrograms } from '../core/tools/commandApprovalText';
import { missingProgramMessage } from './missingProgram';
import { createNodePathProbe } from './nodePathProbe';
import { parentDeathLauncher, pidNamespaceLauncher } from './pidNamespace';
import { followProcessTree } from './processTree';
import { leadsOutside } from '../shared/leadsOutside';
import { locateProgram, projectEnvironment, withAbsolutePath, type ProjectEnvironment, type SelectedPythonEnvironment } from './projectEnvironment';

/** Options of `createNodeCommandRunner`. Durations in milliseconds. */
export interface NodeCommandRunnerOptions {
  /** The environment to start from (default `process.env`); secret-looking variables are always removed. */
  env?: NodeJS.ProcessEnv;
  /** Between the polite SIGTERM and the SIGKILL of the process tree, in ms (default 200). */
  killGraceMs?: number;
  /**
   * Run each command in a PID namespace of its own where the system allows it (default
   * true); false only follows the process tree through `/proc`, as where it is not allowed.
   */
  pidNamespace?: boolean;
  /**
   * Run commands in the workspace's environment, as VS Code's terminals do (see
   * `projectEnvironment`): its Python virtual environment (`.venv`, `venv`) or the one
   * `selectedPython` gives (the editor's Python extension, read at each command), and its
   * `node_modules/.bin`, first on `PATH`. Absent: `PATH` alone. Only for a workspace the
   * user trusts; a program found there is one `describeProgram` reports.
   */
  projectEnvironment?: { selectedPython?: () => Promise<SelectedPythonEnvironment | undefined> };
}

/**
 * A `CommandRunner` spawning processes with Node under the workspace `root`: no shell,
 * cwd confined by `resolveInRoot`, secrets removed from the environment, output capped
 * (head and tail kept), and everything the command started killed on timeout, on abort,
 * and when the command exits leaving processes behind. On Linux each command runs as
 * PID 1 of its own PID namespace (see `pidNamespaceLauncher`), which the kernel empties
 * when it ends, so `setsid` and double-forked daemons die with it; without namespaces
 * its process group and every descendant `/proc` shows are killed (a daemon whose parent
 * already exited then escapes); on Windows `taskkill /T`. Where Linux allows it, the
 * command (the namespace's launcher, else the program) also gets SIGKILL when this process
 * dies, even killed with SIGKILL, so no command outlives its run's host.
 */
export function createNodeCommandRunner(root: string, options: NodeCommandRunnerOptions = {}): CommandRunner {
  const absoluteRoot = path.resolve(root);
  const probe = createNodePathProbe();
  const killGraceMs = options.killGraceMs ?? 200;
  const resolveCwd = async (cwd: string) => (await resolveInRoot(cwd, { root: absoluteRoot, probe })).real;
  // The root as working folders are resolved (links followed), for naming files in it relative to it.
  const realRoot = () => {
    try {
      return fs.realpathSync(absoluteRoot);
    } catch {
      return absoluteRoot;
    }
  };
  // Computed at each command: an earlier step may have created the virtual environment or run npm install.
  const environment = async (cwd: string, withoutProjectPrograms = false): Promise<ProjectEnvironment> => {
    const env = withoutSecrets(options.env ?? process.env);
    const project = options.projectEnvironment;
    if (project === undefined || withoutProjectPrograms) return withAbsolutePath(env);
    const python = await project.selectedPython?.().catch(() => undefined);
    return projectEnvironment(absoluteRoot, env, python, cwd);
  };
  return {
    describeCwd: resolveCwd,
    async describeProgram(program, cwd) {
      if (options.projectEnvironment === undefined) return undefined;
      // The nearest package's programs come first: the program that runs in `cwd` is the one shown and bound to.
      const where = await resolveCwd(cwd).catch(() => absoluteRoot);
      return locateProgram(program, where, await environment(where))?.project;
    },
    async describeRepositoryPrograms(argv, cwd) {
      const program = argv[0] ?? '';
      if (programName(program) !== 'git') return [];
      const where = await resolveCwd(cwd);
      const project = await environment(where);
      const git = listingGit(program, project, realRoot());
      return git === undefined ? [] : readGitRepositoryPrograms(git, argv, where, realRoot(), withSafeGitConfig(program, project.env));
    },
    async run(spec, signal) {
      signal.throwIfAborted();
      const cwd = await resolveCwd(spec.cwd);
      const [program, ...args] = spec.argv;
      if (program === undefined || program === '') throw new Error('The command is empty; argv[0] must name a program.');
      const project = await environment(cwd, spec.withoutProjectPrograms === true);
      // git gets settings no repository can undo (no implicit bare repository, no file system monitor)
      const env = withSafeGitConfig(program, project.env);
      const launcher = options.pidNamespace === false ? undefined : await pidNamespaceLauncher();
      // The file the user was shown, else found here as execvp would (unshare would report a missing program as output).
      const found =
        spec.program !== undefined
          ? findProgram(spec.program, cwd, undefined)
          : locateProgram(program, cwd, spec.programOnPath === true ? { ...project, folders: [] } : project)?.path;
      if (found === undefined) {
        throw startError(
          spec.program === undefined
            ? missingProgramMessage(program, cwd, absoluteRoot, project)
            : `Cannot start "${program}": ${spec.program} is no longer there.`,
          'ENOENT',
        );
      }
      // What the repository's own configuration makes git run: only what the user was shown (or nothing, unshown).
      const git = programName(program) === 'git' ? listingGit(program, project, realRoot()) : undefined;
      if (git !== undefined) {
        const named = await readGitRepositoryPrograms(git, spec.argv, cwd, realRoot(), env);
        const unshown = named.filter((what) => !(spec.repositoryPrograms ?? []).includes(what));
        if (unshown.length > 0) throw startError(repositoryProgramsMessage(program, unshown, spec.repositoryPrograms !== undefined), undefined);
      }
      // Without a namespace, the command itself still dies with this process (its own children may outlive it).
      const prefix = launcher ?? (await parentDeathLauncher());
      const argv = [...prefix, found, ...args] as [string, ...string[]];
      const started = Date.now();
      const child = spawn(argv[0], argv.slice(1), {
        cwd,
        env,
        shell: false,
        detached: process.platform !== 'win32',
        windowsHide: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const stdout = new CappedOutput(spec.maxOutputBytes);
      const stderr = new CappedOutput(spec.maxOutputBytes);
      const decoders = { out: new StringDecoder('utf8'), err: new StringDecoder('utf8') };
      child.stdout.on('data', (chunk: Buffer) => {
        stdout.push(chunk);
        spec.onOutput?.(decoders.out.write(chunk));
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr.push(chunk);
        spec.onOutput?.(decoders.err.write(chunk));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(spec.stdin ?? '');

      return new Promise<CommandResult>((resolve, reject) => {
        let timedOut = false;
        let exit: { code: number | null; signal: string | null } | undefined;
        let settled = false;
        const timers: NodeJS.Timeout[] = [];
        const tree = child.pid === undefined ? undefined : followProcessTree(child.pid);
        const killTree = (polite: boolean) => {
          if (child.pid === undefined || !tree) return;
          if (process.platform === 'win32') spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
          // unshare dies of SIGTERM and takes the namespace with it: only what runs inside is asked politely.
          else if (polite) tree.terminate(launcher === undefined);
          else tree.kill();
        };
        const stop = () => {
          killTree(true);
          timers.push(setTimeout(() => killTree(false), killGraceMs));
          // Resolve even if a stubborn grandchild keeps the pipes open.
          timers.push(setTimeout(() => finish(), killGraceMs + 300));
        };
        const onAbort = () => stop();
        const finish = () => {
          if (settled) return;
          settled = true;
          for (const timer of timers) clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          child.stdout.destroy();
          child.stderr.destroy();
          resolve({
            exitCode: exit?.code ?? null,
            signal: exit?.signal ?? (exit ? null : 'SIGKILL'),
            stdout: stdout.text(),
            stderr: stderr.text(),
            timedOut,
            truncated: stdout.dropped > 0 || stderr.dropped > 0,
            durationMs: Date.now() - started,
          });
        };
        signal.addEventListener('abort', onAbort, { once: true });
        timers.push(
          setTimeout(() => {
            timedOut = true;
            stop();
          }, spec.timeoutMs),
        );
        child.once('error', (error: NodeJS.ErrnoException) => {
          if (settled) return;
          settled = true;
          for (const timer of timers) clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          reject(
            startError(
              error.code === 'ENOENT' ? missingProgramMessage(program, cwd, absoluteRoot, project) : `Cannot start "${program}": ${error.message}`,
              error.code,
            ),
          );
        });
        child.once('exit', (code, signalName) => {
          exit = { code, signal: signalName };
          // Children left behind in the group would keep the pipes (and this promise) open.
          timers.push(
            setTimeout(() => {
              killTree(false);
              finish();
            }, 200),
          );
        });
        child.once('close', () => finish());
      });
    },
  };
}

/** Keeps the first and last halves of at most `limit` bytes and counts what it dropped. */
class CappedOutput {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  dropped = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const half = Math.floor(this.limit / 2);
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const keep = this.limit - half;
    while (this.tailBytes > keep) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailBytes - keep;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.dropped += excess;
      }
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.dropped > 0 ? `${head}\n[… ${this.dropped} bytes of output omitted …]\n${tail}` : head + tail;
  }
}

/**
 * The git asked what a repository's configuration names: the one of the user's own `PATH` (its absolute folders), else
 * the command's own when it names one by an absolute path outside the workspace folder `root` (`/opt/git/bin/git`);
 * never a workspace's `.venv/bin/git` or `./git`, which would run before anyone allowed them (the command's own program
 * may be one of those, shown in its question; the configuration is the repository's whichever git reads it).
 */
function listingGit(program: string, environment: ProjectEnvironment, root: string): string | undefined {
  const onPath = findInFolders('git', environment.pathFolders);
  if (onPath !== undefined || !path.isAbsolute(program)) return onPath;
  const relative = path.relative(root, realFile(program));
  return leadsOutside(relative) || path.isAbsolute(relative) ? program : undefined;
}

function realFile(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Why a git command was not started: the repository's own configuration names programs git would run for it (`unshown`)
 * that the user was not shown, either at all (`asked` false: an allow rule ran it unasked) or since the question.
 */
function repositoryProgramsMessage(program: string, unshown: readonly string[], asked: boolean): string {
  const when = asked ? 'that were not in the question you answered (the configuration changed since)' : 'and nobody was asked about them';
  return (
    `Did not start "${program}": this repository's own git configuration makes git run ${shownRepositoryPrograms(unshown)}, ${when}. ` +
    'Run the step again to be asked with them shown, or remove them from the repository\'s configuration if you did not put them there.'
  );
}

/** Why a program could not start, with the system's `code` (`ENOENT`, `EACCES`) that tells whether another attempt could. */
function startError(message: string, code: string | undefined): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}
