// Contract messages check, run by `npm run lint`: every user-facing message literal of the shared
// zod contracts (packages/contracts/src) must be worded by the web's `errors:contract` catalogue,
// whose English text is the contract's message byte for byte (the web finds a translation by it,
// see apps/web/src/lib/i18n/server-errors.ts). Without this check a new contract message shows
// in English in every language and nobody notices (issue 19, docs/i18n.md).
//
//   node scripts/ci/contract-messages.mjs [--contracts packages/contracts/src] [--catalogue <en errors.json>]
//
// What counts as a message, read from the TypeScript syntax tree (the `typescript` package the
// repo already builds with, so no pattern matching of source text):
//   - a string given to a zod check as its message: `.min(1, 'Name is required')`,
//     `.regex(re, '…')`, `.refine(fn, '…')`, `.email('…')`;
//   - the string of a `message:` or `error:` property (`{ message: '…' }`, `z.number({ error })`);
//   - the strings of an exported `…_MESSAGE` / `…_MESSAGES` constant (messages kept apart so the
//     server and the web can share them).
// A template literal with `${…}` is a message with holes: its catalogue entry words the holes as
// `{{name}}` placeholders, and the two match when the text around the holes is the same.
// Exits 1 with one line per message the catalogue does not word, and on catalogue entries no
// contract says any more (a contract's English changed: its entry would never match again).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

/** Zod checks whose first argument is a value and whose second is the message. */
const VALUE_THEN_MESSAGE = new Set([
  'min',
  'max',
  'length',
  'size',
  'gt',
  'gte',
  'lt',
  'lte',
  'regex',
  'refine',
  'startsWith',
  'endsWith',
  'includes',
  'multipleOf',
]);
/** Zod checks whose first argument is the message. */
const MESSAGE_FIRST = new Set([
  'email',
  'url',
  'uuid',
  'nonempty',
  'int',
  'positive',
  'nonnegative',
  'negative',
  'nonpositive',
  'finite',
  'datetime',
  'date',
]);
const MESSAGE_PROPERTIES = new Set(['message', 'error']);
const MESSAGE_CONSTANT = /_MESSAGES?$/;

/** A hole in a message (a template literal's `${…}`, a catalogue entry's `{{…}}`). */
export const HOLE = '\u0000';

/** The message a string or template literal says, holes as HOLE; undefined for anything else. */
function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((span) => HOLE + span.literal.text).join('');
  }
  return undefined;
}

const propertyName = (node) =>
  node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))
    ? node.name.text
    : undefined;

/** The user-facing message literals of one contract file, each with its line. */
export function messagesOfSource(fileName, sourceText) {
  const file = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (node) => {
    const text = literalText(node);
    if (text === undefined || text.trim() === '') return;
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    found.push({ message: text, where: `${fileName}:${line}` });
  };
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      node.arguments.forEach((argument, index) => {
        if ((VALUE_THEN_MESSAGE.has(method) && index >= 1) || MESSAGE_FIRST.has(method)) {
          add(argument);
        }
      });
    }
    if (ts.isPropertyAssignment(node) && MESSAGE_PROPERTIES.has(propertyName(node) ?? '')) {
      add(node.initializer);
    }
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      MESSAGE_CONSTANT.test(node.name.text) &&
      node.initializer
    ) {
      const init = node.initializer;
      if (ts.isObjectLiteralExpression(init)) {
        for (const property of init.properties) {
          if (ts.isPropertyAssignment(property)) add(property.initializer);
        }
      } else {
        add(init);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every message of the contracts folder (test files aside), deduplicated, first place kept. */
export function collectContractMessages(contractsDir) {
  const byMessage = new Map();
  const files = readdirSync(contractsDir)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .sort();
  for (const name of files) {
    const text = readFileSync(path.join(contractsDir, name), 'utf8');
    for (const found of messagesOfSource(name, text)) {
      if (!byMessage.has(found.message)) byMessage.set(found.message, found);
    }
  }
  return [...byMessage.values()];
}

/** A catalogue entry's English as a message with holes (`{{name}}` → HOLE). */
export const catalogueShape = (english) => english.replace(/\{\{\s*[\w.]+\s*\}\}/g, HOLE);

/** The messages no `contract` entry of the English errors catalogue words. */
export function unwordedMessages(messages, contractCatalogue) {
  const worded = new Set(Object.values(contractCatalogue).map((text) => catalogueShape(text)));
  return messages.filter(({ message }) => !worded.has(message));
}

/** The catalogue's `contract` keys whose English no contract says (any more): stale entries. */
export function staleEntries(messages, contractCatalogue) {
  const said = new Set(messages.map(({ message }) => message));
  return Object.entries(contractCatalogue)
    .filter(([, text]) => !said.has(catalogueShape(text)))
    .map(([key]) => key);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const contractsDir = path.resolve(repoRoot, arg('--contracts', 'packages/contracts/src'));
  const catalogueFile = path.resolve(
    repoRoot,
    arg('--catalogue', 'apps/web/src/locales/en/errors.json'),
  );
  const catalogue = JSON.parse(readFileSync(catalogueFile, 'utf8')).contract ?? {};
  const messages = collectContractMessages(contractsDir);
  const missing = unwordedMessages(messages, catalogue);
  const stale = staleEntries(messages, catalogue);
  const where = `${path.relative(repoRoot, catalogueFile)} "contract"`;
  if (missing.length > 0) {
    console.error(`Contract messages the catalogue does not word (${where}):`);
    for (const { message, where: at } of missing) {
      console.error(`  ${at}: ${JSON.stringify(message.replaceAll(HOLE, '${…}'))}`);
    }
  }
  if (stale.length > 0) {
    console.error(`Catalogue entries no contract says (${where}): ${stale.join(', ')}`);
  }
  if (missing.length > 0 || stale.length > 0) process.exit(1);
  console.log(`Contract messages: all ${messages.length} worded by the catalogue.`);
}
