// Hard-coded English check (issue 19), run by `npm run lint`: every user-visible text of the web
// app goes through the translation catalogues. Finds, in apps/web/src (tests and stories aside):
// - JSX text with a letter in it (`<p>Scan Again</p>`);
// - a string literal given to a text prop (`title="Scan Licence Plate"`, `label={'Plate'}`);
// - a string literal or template in a toast's title or description (`toast({ title: 'Error' })`)
//   or as getErrorMessage's fallback (`getErrorMessage(error, 'Failed to load')`).
// Texts that are not words of a language (the brand name, symbols) are allowed below.
//
//   node scripts/ci/hardcoded-text.mjs [--dir apps/web/src]
//
// Exits 1 with one line per finding (file:line: text).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

const TEXT_PROPS = new Set([
  'title',
  'description',
  'label',
  'placeholder',
  'aria-label',
  'alt',
  'captureLabel',
  'failure',
]);
const TOAST_FIELDS = new Set(['title', 'description']);
/** Not English: the product's name, and texts without a letter. */
const ALLOWED = new Set(['Boomgate']);
/** Examples of a format, the same in every language: a URL, e-mail addresses, a date pattern. */
const EXAMPLE = /^(https?:\/\/\S*|[\w.+-]+@[\w.-]+(, [\w.+-]+@[\w.-]+)*|YYYY-MM-DD)$/;
const HAS_LETTER = /\p{L}{2,}/u;

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'testing' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.(test|stories)\.tsx?$/.test(name) ? [full] : [];
  });
}

const isWords = (text) => {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return (
    trimmed !== '' && HAS_LETTER.test(trimmed) && !ALLOWED.has(trimmed) && !EXAMPLE.test(trimmed)
  );
};

/** The literal text of a string expression, or null when it is computed. */
function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
  }
  if (ts.isJsxExpression(node) && node.expression) return literalText(node.expression);
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  return null;
}

const isCallTo = (node, name) =>
  ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name;

/** Findings in one file's source text: `{ line, text }`. */
export function findHardcodedText(fileName, sourceText) {
  const file = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, true);
  const findings = [];
  const report = (node, text) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    findings.push({ line: line + 1, text: text.replace(/\s+/g, ' ').trim() });
  };
  const visit = (node) => {
    if (ts.isJsxText(node) && isWords(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && node.initializer && TEXT_PROPS.has(node.name.getText(file))) {
      const text = literalText(node.initializer);
      if (text !== null && isWords(text)) report(node, text);
    }
    // getErrorMessage(error, 'Failed to …'): the fallback shows when the server sent no message.
    if (isCallTo(node, 'getErrorMessage') && node.arguments[1]) {
      const text = literalText(node.arguments[1]);
      if (text !== null && isWords(text)) report(node.arguments[1], text);
    }
    if (
      isCallTo(node, 'toast') &&
      node.arguments[0] &&
      ts.isObjectLiteralExpression(node.arguments[0])
    ) {
      for (const property of node.arguments[0].properties) {
        if (!ts.isPropertyAssignment(property) || !TOAST_FIELDS.has(property.name.getText(file))) {
          continue;
        }
        const text = literalText(property.initializer);
        if (text !== null && isWords(text)) report(property, text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return findings;
}

export function checkDirectory(dir) {
  return sourceFiles(dir).flatMap((file) =>
    findHardcodedText(file, readFileSync(file, 'utf8')).map(
      (finding) => `${path.relative(repoRoot, file)}:${finding.line}: ${finding.text}`,
    ),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(repoRoot, arg('--dir', 'apps/web/src'));
  const problems = checkDirectory(dir);
  if (problems.length > 0) {
    console.error(
      `Hard-coded text (not through the catalogues) in ${path.relative(repoRoot, dir)}:`,
    );
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(`Hard-coded text: none (${path.relative(repoRoot, dir)}).`);
}
