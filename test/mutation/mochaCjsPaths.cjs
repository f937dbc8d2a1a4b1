// Preloaded (NODE_OPTIONS=--require) into Stryker and its test-runner processes.
// @stryker-mutator/mocha-runner 9.x requires mocha's CLI helpers by extensionless path
// (mocha/lib/cli/run-helpers); mocha 12 ships them as .cjs files, so Node finds nothing.
// Letting the CommonJS loader try ".cjs" after ".js" resolves those paths to the same files
// mocha itself loads; nothing else in the run asks for an extensionless .cjs file.
const Module = require('node:module');

if (!('.cjs' in Module._extensions)) Module._extensions['.cjs'] = Module._extensions['.js'];
