// The eval's tasks over the fixture repository test/eval/fixtures/config (see evalTasks.ts).
import { edit, fileContains, write, testsPass, type EvalTask } from '../evalTask';

/** The tasks over the config fixture. */
export const configTasks: readonly EvalTask[] = [
  {
    id: 'config-port',
    fixture: 'config',
    request: 'Change the default port to 3000.',
    plan: { files: ['config/default.json'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'config/default.json', text: '"port": 3000' }, { kind: 'tests' }],
    canned: [edit('S1', 'config/default.json', [['"port": 8080', '"port": 3000']], { checks: [testsPass] })],
  },
  {
    id: 'config-host-setting',
    fixture: 'config',
    request: 'Add a "host" setting (default "0.0.0.0") and show it in the server description, with the test updated.',
    plan: { files: ['config/default.json', 'src/server.js', 'test/server.test.js'], checkKinds: ['command'] },
    host: [
      { kind: 'contains', path: 'config/default.json', text: '"host"' },
      { kind: 'contains', path: 'src/server.js', text: 'config.host' },
      { kind: 'tests' },
    ],
    canned: [
      edit('S1', 'config/default.json', [['"port": 8080,', '"host": "0.0.0.0",\n  "port": 8080,']]),
      edit('S2', 'src/server.js', [['listening on ${config.port}', 'listening on ${config.host}:${config.port}']]),
      edit('S3', 'test/server.test.js', [['/listening on \\d+/', '/listening on 0\\.0\\.0\\.0:\\d+/']], { dependsOn: ['S1', 'S2'], checks: [testsPass] }),
    ],
  },
  {
    id: 'config-bump-changelog',
    fixture: 'config',
    request: 'Bump the service to 3.5.0 and create a CHANGELOG.md saying the port is configurable.',
    plan: { files: ['package.json', 'CHANGELOG.md'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'contains', path: 'package.json', text: '"version": "3.5.0"' },
      { kind: 'contains', path: 'CHANGELOG.md', text: '3.5.0' },
    ],
    canned: [
      edit('S1', 'package.json', [['"version": "3.4.5"', '"version": "3.5.0"']]),
      write('S2', 'CHANGELOG.md', '# Changelog\n\n## 3.5.0\n\n- The port is configurable.\n', { checks: [fileContains('CHANGELOG.md', '3.5.0')] }),
    ],
  },
  {
    id: 'config-ignore-env',
    fixture: 'config',
    request: 'Ignore .env files in git.',
    plan: { files: ['.gitignore'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'contains', path: '.gitignore', text: '.env' },
      { kind: 'contains', path: '.gitignore', text: 'node_modules/' },
    ],
    canned: [edit('S1', '.gitignore', [['node_modules/\n', 'node_modules/\n.env\n']], { checks: [fileContains('.gitignore', '.env')] })],
  },
];
