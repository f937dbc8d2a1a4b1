import { readSources } from './importGraph';
import { folderCycles, folderGraph, mutualPairs } from './folderGraph';

// Prints the folder-level import graph of src/core: `npx tsx test/arch/coreFolderGraph.ts`.
const graph = folderGraph(readSources('src/core'), 'src/core');
const pairs = mutualPairs(graph);
console.log(`${pairs.length} pairs of src/core folders import each other (imports one way/the other):`);
for (const pair of pairs) console.log(`  ${pair}`);
console.log(`${folderCycles(graph).length} folder cycles found by a depth-first walk`);
for (const [from, row] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`  ${from} → ${[...row].sort(([a], [b]) => a.localeCompare(b)).map(([to, count]) => `${to} ${count}`).join(', ')}`);
}
