// Translation catalogues check, run by `npm run lint` (so by `npm run check` and .ci/run): every
// language's catalogue must have every key of the English one (the source), with the same
// placeholders, and no key English does not have. Plural keys follow i18next's JSON v4 format
// (`key_one`, `key_other`, …): a language must give each plural category its own CLDR rules
// name (Intl.PluralRules), e.g. Portuguese `_one`, `_many` and `_other`.
//
//   node scripts/ci/i18n-catalogues.mjs [--dir apps/web/src/locales]
//
// Layout: <dir>/languages.json (code → { nativeName, review }) and <dir>/<code>/<namespace>.json.
// Exits 1 with one line per problem.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = 'en';
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*([\w.]+)(?:\s*,[^}]*)?\s*\}\}|<(\/?\w+)\s*\/?>/g;
const REVIEW_STATUSES = ['source', 'native-reviewed', 'machine-drafted, needs native review'];

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.resolve(repoRoot, arg('--dir', 'apps/web/src/locales'));

/** Flattens nested catalogues to dotted keys (i18next's keySeparator). */
function flatten(value, prefix = '', into = new Map()) {
  for (const [key, child] of Object.entries(value)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (child !== null && typeof child === 'object') flatten(child, full, into);
    else into.set(full, String(child));
  }
  return into;
}

const placeholdersOf = (text) =>
  [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? `<${match[2]}>`).sort();

function readJson(file, problems) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${path.relative(repoRoot, file)}: not valid JSON (${error.message})`);
    return {};
  }
}

function pluralCategories(language) {
  try {
    return new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  } catch {
    return ['one', 'other'];
  }
}

export function checkCatalogues(root) {
  const problems = [];
  const metaFile = path.join(root, 'languages.json');
  if (!existsSync(metaFile)) return [`${path.relative(repoRoot, metaFile)} is missing`];
  const meta = readJson(metaFile, problems);
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  for (const code of folders) {
    if (!meta[code]) problems.push(`${code}: no entry in languages.json`);
  }
  for (const [code, entry] of Object.entries(meta)) {
    if (!folders.includes(code)) problems.push(`${code}: in languages.json but no folder`);
    if (!entry?.nativeName) problems.push(`${code}: languages.json gives no nativeName`);
    if (!REVIEW_STATUSES.includes(entry?.review)) {
      problems.push(`${code}: review must be one of ${REVIEW_STATUSES.join(' | ')}`);
    }
  }
  const sourceDir = path.join(root, SOURCE);
  if (!existsSync(sourceDir)) return [...problems, `${SOURCE}: the source catalogue is missing`];
  const namespaces = readdirSync(sourceDir).filter((file) => file.endsWith('.json'));

  for (const code of folders.filter((folder) => folder !== SOURCE)) {
    const categories = pluralCategories(code);
    for (const file of readdirSync(path.join(root, code))) {
      if (!namespaces.includes(file)) problems.push(`${code}/${file}: no such English namespace`);
    }
    for (const namespace of namespaces) {
      const where = `${code}/${namespace}`;
      const targetFile = path.join(root, code, namespace);
      if (!existsSync(targetFile)) {
        problems.push(`${where}: missing namespace`);
        continue;
      }
      const source = flatten(readJson(path.join(sourceDir, namespace), problems));
      const target = flatten(readJson(targetFile, problems));
      const expected = new Map();
      for (const [key, text] of source) {
        if (PLURAL_SUFFIX.test(key)) {
          const base = key.replace(PLURAL_SUFFIX, '');
          for (const category of categories) expected.set(`${base}_${category}`, text);
        } else {
          expected.set(key, text);
        }
      }
      for (const [key, sourceText] of expected) {
        const text = target.get(key);
        if (text === undefined) {
          problems.push(`${where}: missing key "${key}"`);
          continue;
        }
        if (text.trim() === '') problems.push(`${where}: empty text for "${key}"`);
        const want = placeholdersOf(sourceText).filter((name) => name !== 'count');
        const got = placeholdersOf(text).filter((name) => name !== 'count');
        if (want.join() !== got.join()) {
          problems.push(
            `${where}: "${key}" has placeholders [${got.join(', ')}], English has [${want.join(', ')}]`,
          );
        }
      }
      for (const key of target.keys()) {
        if (!expected.has(key)) problems.push(`${where}: key "${key}" is not in English`);
      }
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkCatalogues(dir);
  if (problems.length > 0) {
    console.error(`Translation catalogues (${path.relative(repoRoot, dir)}):`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(`Translation catalogues: complete (${path.relative(repoRoot, dir)}).`);
}
