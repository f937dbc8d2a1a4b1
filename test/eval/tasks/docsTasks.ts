// The eval's tasks over the fixture repository test/eval/fixtures/docs (see evalTasks.ts).
import { edit, fileContains, write, type EvalTask } from '../evalTask';

/** The tasks over the docs fixture. */
export const docsTasks: readonly EvalTask[] = [
  {
    id: 'docs-add-page',
    fixture: 'docs',
    request: 'Add a FAQ page docs/faq.md and link it from mkdocs.yml and the README.',
    plan: { files: ['docs/faq.md', 'mkdocs.yml', 'README.md'], checkKinds: ['file_exists'] },
    host: [
      { kind: 'contains', path: 'mkdocs.yml', text: 'docs/faq.md' },
      { kind: 'contains', path: 'README.md', text: 'docs/faq.md' },
      { kind: 'contains', path: 'docs/faq.md', text: '# ' },
    ],
    canned: [
      write('S1', 'docs/faq.md', '# FAQ\n\n## Does gadget need a network?\n\nNo.\n', { checks: [{ kind: 'file_exists', path: 'docs/faq.md' }] }),
      edit('S2', 'mkdocs.yml', [['  - Usage: docs/usage.md\n', '  - Usage: docs/usage.md\n  - FAQ: docs/faq.md\n']]),
      edit('S3', 'README.md', [['See docs/install.md and docs/usage.md.', 'See docs/install.md, docs/usage.md and docs/faq.md.']]),
    ],
  },
  {
    id: 'docs-rename-api',
    fixture: 'docs',
    request: 'The API call gadget.stop() is now gadget.shutdown(): update the docs.',
    plan: { files: ['docs/usage.md'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'lacks', path: 'docs/usage.md', text: 'stop()' },
      { kind: 'contains', path: 'docs/usage.md', text: 'gadget.shutdown()' },
    ],
    canned: [edit('S1', 'docs/usage.md', [['`gadget.stop()`', '`gadget.shutdown()`']], { checks: [fileContains('docs/usage.md', 'gadget.shutdown()')] })],
  },
  {
    id: 'docs-uninstall',
    fixture: 'docs',
    request: 'Add an Uninstall section to docs/install.md.',
    plan: { files: ['docs/install.md'], checkKinds: ['file_contains'] },
    host: [{ kind: 'contains', path: 'docs/install.md', text: 'Uninstall' }],
    canned: [
      edit('S1', 'docs/install.md', [['Run `npm install gadget`.\n', 'Run `npm install gadget`.\n\n## Uninstall\n\nRun `npm uninstall gadget`.\n']], {
        checks: [fileContains('docs/install.md', '## Uninstall')],
      }),
    ],
  },
];
