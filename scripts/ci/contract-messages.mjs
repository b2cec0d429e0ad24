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
// The same goes for the AppError messages of the server modules guards and the back office use
// daily (DAILY_SERVER_MODULES), worded by the catalogue's `server` section (`--server-modules
// none` checks the contracts only).
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

/**
 * The server modules whose AppError messages the web shows as they are on the screens guards and
 * the back office use daily (sign-in, the gate's entries and visits, registered vehicles,
 * drivers, users): each must be worded by the catalogue's `server` section.
 */
export const DAILY_SERVER_MODULES = [
  'auth',
  'entry-logs',
  'visits',
  'approved-vehicles',
  'drivers',
  'users',
];

/**
 * Server messages left to the code's sentence on purpose: their holes carry English words (a
 * plural ending, a verb, an engine's reason), so no translation can keep them; in another
 * language the web shows the `errors:<CODE>` sentence instead.
 */
export const SERVER_MESSAGES_BY_CODE_ONLY = new Set(
  [
    'Too many failed sign-in attempts. Try again in ${} minute${}.',
    'A security guard can approve a vehicle for at most ${} month${} (until ${}).',
    'You cannot ${} your own account.',
    'Driver photo: ${}',
  ].map((text) => text.replaceAll('${}', HOLE)),
);

/** The messages of `new AppError(code, message)` in one server file; a constant is followed. */
export function appErrorMessagesOfSource(fileName, sourceText) {
  const file = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, true);
  const constants = new Map();
  const found = [];
  const collectConstants = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const text = literalText(node.initializer);
      if (text !== undefined) constants.set(node.name.text, text);
    }
    ts.forEachChild(node, collectConstants);
  };
  collectConstants(file);
  const visit = (node) => {
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'AppError' &&
      node.arguments?.[1]
    ) {
      const argument = node.arguments[1];
      const text = ts.isIdentifier(argument) ? constants.get(argument.text) : literalText(argument);
      if (text !== undefined && text.trim() !== '') {
        const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
        found.push({ message: text, where: `${fileName}:${line}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every AppError message of the daily modules (tests aside), deduplicated. */
export function collectServerMessages(modulesDir, modules = DAILY_SERVER_MODULES) {
  const byMessage = new Map();
  for (const module of modules) {
    const moduleDir = path.join(modulesDir, module);
    const files = readdirSync(moduleDir, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .sort();
    for (const name of files) {
      const text = readFileSync(path.join(moduleDir, name), 'utf8');
      for (const found of appErrorMessagesOfSource(`${module}/${name}`, text)) {
        if (SERVER_MESSAGES_BY_CODE_ONLY.has(found.message)) continue;
        if (!byMessage.has(found.message)) byMessage.set(found.message, found);
      }
    }
  }
  return [...byMessage.values()];
}

/** A catalogue entry's English as a message with holes (`{{name}}` → HOLE). */
export const catalogueShape = (english) => english.replace(/\{\{\s*[\w.]+\s*\}\}/g, HOLE);

/**
 * The messages no entry of a catalogue section words (`also`: further sentences that word a
 * message as well, e.g. the code's own sentence when the server says exactly that).
 */
export function unwordedMessages(messages, section, also = []) {
  const worded = new Set([...Object.values(section), ...also].map((text) => catalogueShape(text)));
  return messages.filter(({ message }) => !worded.has(message));
}

/** The catalogue's `contract` keys whose English no contract says (any more): stale entries. */
export function staleEntries(messages, contractCatalogue) {
  const said = new Set(messages.map(({ message }) => message));
  return Object.entries(contractCatalogue)
    .filter(([, text]) => !said.has(catalogueShape(text)))
    .map(([key]) => key);
}

/** Problems of one catalogue section against the messages it must word (empty: none). */
function sectionProblems(title, messages, section, where, also = []) {
  const missing = unwordedMessages(messages, section, also);
  const stale = staleEntries(messages, section);
  const problems = [];
  if (missing.length > 0) problems.push(`${title} the catalogue does not word (${where}):`);
  for (const { message, where: at } of missing) {
    problems.push(`  ${at}: ${JSON.stringify(message.replaceAll(HOLE, '${…}'))}`);
  }
  if (stale.length > 0) {
    problems.push(`Catalogue entries no such message says (${where}): ${stale.join(', ')}`);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const contractsDir = path.resolve(repoRoot, arg('--contracts', 'packages/contracts/src'));
  const serverDir = arg('--server-modules', 'apps/server/src/modules');
  const catalogueFile = path.resolve(
    repoRoot,
    arg('--catalogue', 'apps/web/src/locales/en/errors.json'),
  );
  const catalogue = JSON.parse(readFileSync(catalogueFile, 'utf8'));
  const relative = path.relative(repoRoot, catalogueFile);
  const contract = collectContractMessages(contractsDir);
  const problems = sectionProblems(
    'Contract messages',
    contract,
    catalogue.contract ?? {},
    `${relative} "contract"`,
  );
  let server = [];
  if (serverDir !== 'none') {
    server = collectServerMessages(path.resolve(repoRoot, serverDir));
    problems.push(
      ...sectionProblems(
        'Server messages',
        server,
        catalogue.server ?? {},
        `${relative} "server"`,
        Object.values(catalogue).filter((value) => typeof value === 'string'),
      ),
    );
  }
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  console.log(
    `Contract messages: all ${contract.length} worded by the catalogue` +
      (serverDir === 'none' ? '.' : `; server messages: all ${server.length}.`),
  );
}
