/**
 * The words that order one instruction after the one before, in the languages requests are
 * written in (English, German, French, Spanish, Portuguese, Chinese, Japanese). `start`
 * words order a part only where a sentence, a list item or a clause begins ("Then …",
 * ", danach …", "。最后…"); `within` words also split a sentence where they stand, because
 * they cannot mean anything else there ("lies README.md und dann …", "读取 README.md 然后运行 …";
 * not "danach" alone, which also stands after a verb: "behebe danach die Fehler").
 */
export const sequencingWords = {
  start: [
    'and then', 'then', 'next', 'after that', 'afterwards', 'afterward', 'finally', 'lastly',
    'once that is done', "once that's done", 'once it is done', "once it's done", 'when that is done', "when that's done",
    'und dann', 'und danach', 'danach', 'dann', 'anschließend', 'anschliessend', 'als nächstes', 'zuletzt', 'schließlich', 'schliesslich', 'zum schluss',
    'et puis', 'puis', 'et ensuite', 'ensuite', 'après cela', 'après ça', 'enfin', 'finalement',
    'y luego', 'luego', 'y después', 'después', 'despues', 'a continuación', 'por último', 'finalmente',
    'e depois', 'depois', 'e em seguida', 'em seguida', 'a seguir', 'por fim',
    '然后', '之后', '接着', '随后', '接下来', '最后', '再',
    'そして', 'それから', '次に', 'その後', 'そのあと', '続いて', '最後に',
  ],
  within: [
    'und dann', 'und danach', 'und anschließend', 'und anschliessend',
    'et puis', 'puis', 'et ensuite',
    'y luego', 'y después', 'y despues',
    'e depois', 'e em seguida',
    '然后', '接着', '随后', '接下来',
    'それから', '次に', 'その後', 'そのあと', '続いて',
  ],
} as const;

/** Words saying the parts of a request do not depend on one another, in the same languages. */
export const parallelWords = [
  'in parallel', 'independently', 'at the same time', 'simultaneously', 'concurrently',
  'parallel aus', 'gleichzeitig', 'unabhängig voneinander', 'en parallèle', 'indépendamment', 'en paralelo', 'independientemente',
  'em paralelo', 'independentemente', '并行', '同时', '並列', '同時に', '並行して',
] as const;

/**
 * Words that only say "run" (or "please", "the command") around a command in backticks, in
 * the same languages: a part made of a backticked command and these words is that command
 * ("führe `npm test` aus", "运行 `npm test`", "`npm test` を実行して").
 */
export const runWords = [
  'run', 'execute', 'exec', 'invoke', 'launch', 'start', 'please', 'command',
  'führe', 'führen', 'aus', 'ausführen', 'starte', 'starten', 'bitte', 'den', 'befehl', 'lass', 'laufen',
  'exécute', 'exécuter', 'exécutez', 'lance', 'lancer', 'lancez', 'la', 'commande',
  'ejecuta', 'ejecutar', 'ejecute', 'corre', 'correr', 'lanza', 'el', 'comando', 'por', 'favor',
  'executa', 'executar', 'execute', 'rode', 'rodar', 'roda', 'o',
  '运行', '执行', '跑', '请', '命令', '一下',
  '実行してください', '実行して', '実行する', '実行', 'を', 'コマンド',
] as const;

/** English verbs that start an instruction ("add …", "run …"): a pattern source. */
export const actionVerbs =
  'read|open|show|list|search|grep|find|delete|remove|run|execute|create|make|add|write|update|edit|fix|change|rename|move|copy|implement|refactor|explain|summari[sz]e|document|commit|push|deploy|install|test|check|verify|review|build|compile|lint|format|replace|clean|generate|publish|release|upgrade|bump|describe|tell|report';

/**
 * English verbs by which a request asks to be told what a command printed ("and report the
 * results"): part of running the command, not a step of their own. A pattern source.
 */
export const reportVerbs = 'show|list|explain|summari[sz]e|describe|tell|report|check|review|print';

/** A pattern source matching any of `words` (longest first, regex characters escaped, spaces as any whitespace). */
export function alternation(words: readonly string[]): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, String.raw`\s+`))
    .join('|');
}

/** Whether a word of `words` is written in a script without spaces between words (Chinese, Japanese). */
export function isCjk(word: string): boolean {
  return /[\u3040-\u30ff\u3400-\u9fff]/.test(word);
}
