// Temporary folders that are removed even when the process ends early (a failed hook, Ctrl-C, process.exit):
// each one also registers a synchronous 'exit' listener, dropped again when the folder is removed normally.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** @param {string} dir */
function removeFolder(dir) {
  // retries cover a browser or server that is still writing its last files while being killed
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

/**
 * Creates a folder under the system temp folder, removed on exit unless removed before.
 * @param {string} prefix  e.g. 'task-planner-e2e-ws-'
 * @returns {{ path: string; remove: () => void }}
 */
function temporaryFolder(prefix) {
  return removeOnExit(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * Removes `dir` when the process exits, unless remove() ran before. 'exit' listeners run in the order they
 * were added: register after starting whatever writes into the folder, so its own exit listener stops it first.
 * @param {string} dir
 * @returns {{ path: string; remove: () => void }}
 */
function removeOnExit(dir) {
  const onExit = () => removeFolder(dir);
  process.on('exit', onExit);
  return {
    path: dir,
    remove: () => {
      process.off('exit', onExit);
      removeFolder(dir);
    },
  };
}

module.exports = { temporaryFolder, removeOnExit, removeFolder };
