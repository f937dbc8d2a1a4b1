#!/usr/bin/env node
// Wraps the lines that ESLint's max-len rule (eslint.config.mjs, for src) finds too long in the given
// TypeScript files, and only those: Prettier (.prettierrc.json) formats just the statement that holds each
// long line, and a long `//` or JSDoc comment line is word-wrapped under the same prefix. An `if` or loop whose body
// the wrapping moved to the next line gets braces (ESLint's curly rule). A long line of text inside an
// untagged template literal (a prompt) is broken with a backslash at the end of the line, which leaves
// the string's value as it was. What none of this can wrap (a trailing comment) is listed for a person.
// Usage: node scripts/wrapLongLines.mjs FILE...
import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import ts from 'typescript';
import eslintConfig from '../eslint.config.mjs';

const maxLen = eslintConfig.findLast((entry) => entry.rules?.['max-len'])?.rules['max-len'][1];
const maxLength = maxLen.code;
/** Lines the rule leaves whole (one long text on its own). */
const exempt = new RegExp(maxLen.ignorePattern);
const tooLong = (line) => line.length > maxLength && !exempt.test(line);

/** Byte-free offsets: the index in `text` where each line starts. */
function lineStarts(text) {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

/** A `//` or ` * ` comment line split into lines of at most maxLength, each with the same prefix. */
function wrapComment(line) {
  const oneLineDoc = /^(\s*)\/\*\* (.*) \*\/$/.exec(line);
  if (oneLineDoc) {
    const [, indent, body] = oneLineDoc;
    return [`${indent}/**`, ...wrapComment(`${indent} * ${body}`), `${indent} */`];
  }
  const match = /^(\s*(?:\/\/|\*)\s?)(.*)$/.exec(line);
  if (!match) return [line];
  const [, prefix, body] = match;
  const lines = [];
  let current = '';
  for (const word of body.split(' ')) {
    if (current && prefix.length + current.length + 1 + word.length > maxLength) {
      lines.push(prefix + current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  lines.push(prefix + current);
  return lines;
}

const isCommentLine = (line) => /^\s*(\/\/|\*(\s|$)|\/\*\*)/.test(line);

/** The bodies of `if`/`else` and loops that start on a later line than their keyword and have no braces, last first. */
function bracelessBodies(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node) => {
    const bodies = ts.isIfStatement(node) ? [node.thenStatement, node.elseStatement] : ts.isIterationStatement(node, false) ? [node.statement] : [];
    for (const body of bodies) {
      if (!body || ts.isBlock(body) || ts.isIfStatement(body)) continue;
      if (lineOf(body.getStart(source)) > lineOf(body.getFullStart())) found.push({ statement: node, body });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.sort((a, b) => b.body.getStart(source) - a.body.getStart(source));
}

async function braceBodies(file, text, options) {
  for (;;) {
    const [first] = bracelessBodies(file, text);
    if (!first) return text;
    const { statement, body } = first;
    const statementStart = statement.getStart();
    text = `${text.slice(0, body.getFullStart())} {${text.slice(body.getFullStart(), body.getEnd())}\n}${text.slice(body.getEnd())}`;
    text = await format(text, { ...options, rangeStart: statementStart, rangeEnd: statementStart + 2 });
  }
}

/**
 * The positions in `text` of the spaces on the line [lineStart, lineEnd) that lie in the literal text of
 * an untagged template (not in a `${}`), where a backslash and a line break add nothing to its value.
 */
function templateSpaces(file, text, lineStart, lineEnd) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const spaces = [];
  const parts = (node) => (ts.isNoSubstitutionTemplateLiteral(node) ? [node] : [node.head, ...node.templateSpans.map((span) => span.literal)]);
  const visit = (node) => {
    if ((ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) && !ts.isTaggedTemplateExpression(node.parent)) {
      for (const part of parts(node)) {
        // The literal text lies between the opening `\`` or `}` and the closing `\`` or `${`.
        const from = Math.max(part.getStart(source) + 1, lineStart);
        const to = Math.min(part.getEnd() - (ts.isTemplateTail(part) || ts.isNoSubstitutionTemplateLiteral(part) ? 1 : 2), lineEnd);
        for (let index = from; index < to; index++) if (text[index] === ' ' && text[index - 1] !== '\\') spaces.push(index);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spaces;
}

/** Breaks the line that starts at `lineStart` after the last template space that keeps each piece within maxLength. */
function breakTemplateLine(file, text, lineStart) {
  const lineEnd = text.indexOf('\n', lineStart) === -1 ? text.length : text.indexOf('\n', lineStart);
  const spaces = templateSpaces(file, text, lineStart, lineEnd);
  const fitting = spaces.filter((space) => space + 1 - lineStart + 2 <= maxLength);
  const at = fitting.at(-1) ?? spaces[0];
  if (at === undefined) return undefined;
  return `${text.slice(0, at + 1)}\\\n${text.slice(at + 1)}`;
}

async function wrapFile(file) {
  const options = { ...(await resolveConfig(file)), filepath: file };
  let text = readFileSync(file, 'utf8');
  const original = text;
  // Bottom to top, so the offsets of the lines still to do stay valid as lines above them do not move.
  const lines = text.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = text.split('\n')[index];
    if (line === undefined || !tooLong(line)) continue;
    if (isCommentLine(line)) {
      const all = text.split('\n');
      all.splice(index, 1, ...wrapComment(line));
      text = all.join('\n');
      continue;
    }
    const start = lineStarts(text)[index] + (line.length - line.trimStart().length);
    text = await format(text, { ...options, rangeStart: start, rangeEnd: start + line.trim().length });
  }
  text = await braceBodies(file, text, options);
  // What is still too long inside a template: break it, top to bottom, each new line checked again.
  for (let index = 0; index < text.split('\n').length; index++) {
    const line = text.split('\n')[index];
    if (!tooLong(line)) continue;
    const broken = breakTemplateLine(file, text, lineStarts(text)[index]);
    if (broken !== undefined) text = broken;
  }
  const left = text.split('\n').flatMap((line, index) => (tooLong(line) ? [`${file}:${index + 1}: ${line.length} characters`] : []));
  if (text !== original) writeFileSync(file, text);
  return left;
}

const left = [];
for (const file of process.argv.slice(2)) left.push(...(await wrapFile(file)));
if (left.length > 0) console.log(`Still longer than ${maxLength} characters (split these by hand):\n${left.join('\n')}`);
