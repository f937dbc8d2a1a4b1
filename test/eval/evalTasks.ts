// The eval's 30 tasks over the fixture repositories in test/eval/fixtures (one folder each, copied per task).
// Each canned plan is a good answer, so the scripted run tests the harness, not a model.
import type { EvalTask } from './evalTask';
import { greeterTasks } from './tasks/greeterTasks';
import { calcTasks } from './tasks/calcTasks';
import { cliTasks } from './tasks/cliTasks';
import { shopTasks } from './tasks/shopTasks';
import { docsTasks } from './tasks/docsTasks';
import { configTasks } from './tasks/configTasks';

/** Every realistic task, in the order the eval runs them. */
export const evalTasks: readonly EvalTask[] = [...greeterTasks, ...calcTasks, ...cliTasks, ...shopTasks, ...docsTasks, ...configTasks];
