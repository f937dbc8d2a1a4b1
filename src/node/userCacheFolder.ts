import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's own folder of what Task Planner keeps between its processes (`~/.cache/task-planner`): change locks, the key
 * of answer seals. Outside every workspace, so no repository can put anything there.
 */
export function userCacheFolder(): string {
  return join(homedir(), '.cache', 'task-planner');
}
