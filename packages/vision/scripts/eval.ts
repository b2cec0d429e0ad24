/**
 * `npm run eval`: runs `boomgate-vision` on the evaluation sets in ../shared/data (never copied into the
 * repo), scores the output against each manifest and writes docs/vision/accuracy.md.
 * Options: --data <dir> (default ../shared/data beside the repository), --sets plates,sa-plates,pdf417,mrz,sadl
 * (`--sets plates` or `--sets sa-plates` alone for the plates), --limit N (first N items of a set, for a
 * quick look; the doc is not written then), --no-write, --degrade
 * jpeg,blur,small,tilt,dark,glare,motion,noise,shear (or `all`: the real photos of the plates and
 * MRZ sets read again after what a gate camera does to a picture, each degraded copy written to a
 * temp folder; the doc is not written then, see `npm run eval:stress`).
 *
 * Never silently wrong: each reading's `uncertain` list is scored too. A field that is wrong and not
 * listed there is a silent error; the share of correct fields that are confident (not listed) is
 * what a guard sees without confirming. Each set is split in two by a hash of the file name
 * (`half()`): the `tune` half is the one methods were tuned on, the `held-out` half reports what transfers.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DEGRADATIONS, type Degradation, degradeFiles } from '../src/testing/degrade';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageDir, '../..');
const bin = join(packageDir, 'bin/boomgate-vision.js');

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dataDir = resolve(arg('--data') ?? join(repoRoot, '../shared/data'));
const sets = (
  arg('--sets') ?? (arg('--degrade') ? 'plates,mrz' : 'plates,sa-plates,pdf417,mrz,sadl')
).split(',');
const limit = arg('--limit') ? Number(arg('--limit')) : Infinity;
const degradeArg = arg('--degrade');
const degradations: Degradation[] = degradeArg
  ? degradeArg === 'all'
    ? [...DEGRADATIONS]
    : degradeArg.split(',').map((name) => {
        const d = DEGRADATIONS.find((x) => x.name === name);
        if (!d) throw new Error(`Unknown degradation ${name}`);
        return d;
      })
  : [];
if (process.argv.includes('--degrade') && !degradeArg)
  throw new Error(
    `--degrade needs a value: all, or some of ${DEGRADATIONS.map((d) => d.name).join(',')}`,
  );
const photoSets = new Set(['plates', 'mrz']);
if (degradations.length && !sets.every((set) => photoSets.has(set)))
  throw new Error(`--degrade reads the photo sets only (plates, mrz), not ${sets.join(',')}`);
const write = !process.argv.includes('--no-write') && limit === Infinity && !degradeArg;
/** The degradation the sets are being read under (none: the photos as they are). */
let degraded: Degradation | null = null;

/** Deterministic split by file name: `tune` (methods tuned on it) or `held-out` (reported). */
export function half(file: string): 'tune' | 'held-out' {
  return createHash('sha256').update(file).digest()[0]! % 2 === 0 ? 'tune' : 'held-out';
}

type Item = {
  file?: string;
  path?: string;
  expected: Record<string, unknown>;
  [k: string]: unknown;
};
type Output = Record<string, unknown> & { file: string; ok: boolean; ms: number };

function manifest(set: string): Item[] {
  return (
    JSON.parse(readFileSync(join(dataDir, set, 'manifest.json'), 'utf8')) as { items: Item[] }
  ).items.slice(0, limit);
}

function runCli(args: string[]): Output[] {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`boomgate-vision ${args[0]} exited ${result.status}: ${result.stderr}`);
  return result.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Output);
}

function quantile(values: number[], q: number) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! : 0;
}

type Score = {
  set: string;
  items: number;
  correct: number;
  note: string;
  ms: number[];
  command: string;
  failures: string[];
};

function relative(p: string) {
  return p.startsWith(repoRoot) ? p.slice(repoRoot.length + 1) : p;
}

/** Per-field honesty of one group of readings (a set, a split, a region). */
type FieldScore = {
  set: string;
  split: string;
  items: number;
  /** Readings whose scored fields are all right. */
  exact: number;
  fields: number;
  correct: number;
  correctConfident: number;
  /** Scored fields listed in `uncertain`. */
  uncertain: number;
  wrongFlagged: number;
  /** Wrong and not listed in `uncertain`: must be 0. */
  silent: number;
  silentList: string[];
};
const fieldScores: FieldScore[] = [];

function fieldScore(set: string, split: string): FieldScore {
  let s = fieldScores.find((f) => f.set === set && f.split === split);
  if (!s) {
    s = {
      set,
      split,
      items: 0,
      exact: 0,
      fields: 0,
      correct: 0,
      correctConfident: 0,
      uncertain: 0,
      wrongFlagged: 0,
      silent: 0,
      silentList: [],
    };
    fieldScores.push(s);
  }
  return s;
}

/**
 * Scores named fields of one reading into every group given. `checks`: field -> [expected, got];
 * a failed read counts every field as wrong but flagged (it claims nothing).
 */
function scoreFields(
  groups: FieldScore[],
  file: string,
  o: Output,
  checks: Record<string, [unknown, unknown]>,
) {
  const uncertain = new Set((o.uncertain as string[] | undefined) ?? []);
  let allRight = true;
  const silent: string[] = [];
  const tally = {
    fields: 0,
    correct: 0,
    correctConfident: 0,
    uncertain: 0,
    wrongFlagged: 0,
    silent: 0,
  };
  for (const [name, [expected, got]] of Object.entries(checks)) {
    tally.fields++;
    const flagged = !o.ok || uncertain.has(name);
    if (flagged) tally.uncertain++;
    if (o.ok && JSON.stringify(expected) === JSON.stringify(got)) {
      tally.correct++;
      if (!flagged) tally.correctConfident++;
    } else {
      allRight = false;
      if (flagged) tally.wrongFlagged++;
      else {
        tally.silent++;
        silent.push(`${name} ${JSON.stringify(got)} (expected ${JSON.stringify(expected)})`);
      }
    }
  }
  for (const g of groups) {
    g.items++;
    if (allRight) g.exact++;
    g.fields += tally.fields;
    g.correct += tally.correct;
    g.correctConfident += tally.correctConfident;
    g.uncertain += tally.uncertain;
    g.wrongFlagged += tally.wrongFlagged;
    g.silent += tally.silent;
    if (silent.length) g.silentList.push(`${file}: ${silent.join('; ')}`);
  }
}

const REGION_NAMES: Record<string, string> = { us: 'US', eu: 'EU', br: 'BR' };

/**
 * Runs the CLI on `files`, or on degraded copies of them (`--degrade`), written to a temp folder
 * that is removed afterwards.
 */
async function readDegraded(args: string[], files: string[]): Promise<Output[]> {
  if (!degraded) return runCli([...args, ...files]);
  const dir = mkdtempSync(join(tmpdir(), `boomgate-${degraded.name}-`));
  try {
    return runCli([...args, ...(await degradeFiles(files, dir, degraded))]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A set's name in the tables, with the degradation its photos were read under. */
const named = (set: string) => (degraded ? `${set} [${degraded.label}]` : set);

async function scorePlates(): Promise<Score> {
  const items = manifest('plates_openalpr');
  const files = items.map((i) => join(dataDir, 'plates_openalpr', (i.path ?? i.file)!));
  const out = await readDegraded(['read', '--type', 'plate'], files);
  const failures: string[] = [];
  let correct = 0;
  out.forEach((o, k) => {
    const expected = items[k]!.expected.plate as string;
    const got = (o.fields as Record<string, unknown> | undefined)?.plateNumber;
    const file = items[k]!.file ?? items[k]!.path!;
    const region =
      REGION_NAMES[typeof items[k]!.region === 'string' ? items[k]!.region : file.slice(0, 2)] ??
      'other';
    scoreFields(
      [
        fieldScore(named('plates_openalpr (all regions)'), 'all'),
        fieldScore(named('plates_openalpr (all regions)'), half(file)),
        fieldScore(named(`plates_openalpr ${region}`), 'all'),
        fieldScore(named(`plates_openalpr ${region}`), half(file)),
      ],
      file,
      o,
      { plateNumber: [expected, got] },
    );
    if (o.ok && got === expected) correct++;
    else failures.push(`${items[k]!.file}: expected ${expected}, got ${String(got ?? o.error)}`);
  });
  return {
    set: named('plates_openalpr'),
    items: items.length,
    correct,
    note: 'exact plateNumber',
    ms: out.map((o) => o.ms),
    command: `npx boomgate-vision read --type plate <${items.length} images>`,
    failures,
  };
}

/**
 * SA and SADC plates rendered by the package's fixture generators (no labelled SA photos exist):
 * street-photo scenes at three plate sizes and angles, and tight crops. Written to a temp folder and
 * read through the CLI like the real photos.
 */
async function scoreSaPlates(): Promise<Score> {
  const { SA_PLATES, SADC_PLATES, renderPlatePhoto, renderTightPlateCrop } =
    await import('../src/testing/plate-fixture');
  const dir = mkdtempSync(join(tmpdir(), 'boomgate-sa-plates-'));
  const cases: Array<{ file: string; plate: string }> = [];
  const variants = [
    { plateWidth: 420, rotateDegrees: 3, blurSigma: 0.8, seed: 3 },
    { plateWidth: 260, rotateDegrees: -5, blurSigma: 1.0, seed: 7 },
    { plateWidth: 180, rotateDegrees: 8, blurSigma: 0.6, seed: 11 },
  ];
  for (const p of [...SA_PLATES, ...SADC_PLATES].slice(0, limit)) {
    for (const [v, options] of variants.entries()) {
      const file = join(dir, `${p.plate}-scene${v}.jpg`);
      writeFileSync(file, await renderPlatePhoto(p.display, p.style, options));
      cases.push({ file, plate: p.plate });
    }
    const file = join(dir, `${p.plate}-crop.jpg`);
    writeFileSync(file, await renderTightPlateCrop(p.display, p.style));
    cases.push({ file, plate: p.plate });
  }
  const out = runCli(['read', '--type', 'plate', ...cases.map((c) => c.file)]);
  const failures: string[] = [];
  let correct = 0;
  out.forEach((o, k) => {
    const { file, plate } = cases[k]!;
    const name = file.slice(dir.length + 1);
    const got = (o.fields as Record<string, unknown> | undefined)?.plateNumber;
    scoreFields(
      [
        fieldScore('plates SA/SADC generated', 'all'),
        fieldScore('plates SA/SADC generated', half(name)),
      ],
      name,
      o,
      { plateNumber: [plate, got] },
    );
    if (o.ok && got === plate) correct++;
    else failures.push(`${name}: expected ${plate}, got ${String(got ?? o.error)}`);
  });
  rmSync(dir, { recursive: true, force: true });
  return {
    set: 'plates SA/SADC generated',
    items: cases.length,
    correct,
    note: 'exact plateNumber (fixture generators, 3 scenes + 1 tight crop per plate)',
    ms: out.map((o) => o.ms),
    command: `npx boomgate-vision read --type plate <${cases.length} generated images>`,
    failures,
  };
}

/** Two rows: the exact bytes, and `text` (the bytes read as ISO-8859-1, zxing's ground truth). */
function scorePdf417(): Score[] {
  const items = manifest('pdf417_zxing');
  const files = items.map((i) => join(dataDir, 'pdf417_zxing', (i.path ?? i.file)!));
  const out = runCli(['barcode', ...files]);
  const command = `npx boomgate-vision barcode <${items.length} images>`;
  const ms = out.map((o) => o.ms);
  const bytes: Score = {
    set: 'pdf417_zxing (bytes)',
    items: items.length,
    correct: 0,
    note: 'first result, exact bytes (Macro PDF417 assembled across the inputs of one call)',
    ms,
    command,
    failures: [],
  };
  const text: Score = {
    ...bytes,
    set: 'pdf417_zxing (text)',
    note: 'first result, `text` equal to expected.text (bytes read as ISO-8859-1)',
    failures: [],
  };
  out.forEach((o, k) => {
    const expected = items[k]!.expected;
    const first = (o.results as Array<{ text: string; bytesBase64: string }>)[0];
    if (o.ok && first?.bytesBase64 === expected.bytes_b64) bytes.correct++;
    else bytes.failures.push(`${items[k]!.file}: ${first ? 'wrong bytes' : 'no barcode'}`);
    if (o.ok && first?.text === expected.text) text.correct++;
    else
      text.failures.push(
        `${items[k]!.file}: ${first ? `wrong text ${JSON.stringify(first.text.slice(0, 40))}` : 'no barcode'}`,
      );
  });
  return [bytes, text];
}

async function scoreMrz(): Promise<Score[]> {
  const items = manifest('mrz_passporteye');
  const files = items.map((i) => join(dataDir, 'mrz_passporteye', (i.path ?? i.file)!));
  const out = await readDegraded(['read', '--type', 'passport'], files);
  const valid: Score = {
    set: named('mrz_passporteye (check-valid specimens: all checks pass)'),
    items: 0,
    correct: 0,
    note: 'ok and checksValid',
    ms: [],
    command: `npx boomgate-vision read --type passport <${items.length} images>`,
    failures: [],
  };
  const exact: Score = {
    ...valid,
    set: named('mrz_passporteye (all specimens: MRZ lines exact)'),
    note: 'mrzLines equal the transcription',
    ms: [],
    failures: [],
  };
  const honest: Score = {
    ...valid,
    set: named('mrz_passporteye (invalid specimens: reported invalid)'),
    note: 'checksValid false, never a silently wrong MRZ',
    ms: [],
    failures: [],
  };
  out.forEach((o, k) => {
    const e = items[k]!.expected;
    const isValidSpecimen = Object.values(e.check_digits_valid as Record<string, boolean>).every(
      Boolean,
    );
    const fields = (o.fields ?? {}) as Record<string, unknown>;
    const lines = (fields.mrzLines as string[] | undefined)?.join('|');
    const file = items[k]!.file ?? items[k]!.path!;
    // The manifest's forms: YYMMDD dates, `<`-filled numbers, names with spaces.
    const yymmdd = (iso: unknown) =>
      typeof iso === 'string' ? iso.replace(/-/g, '').slice(2) : iso;
    const unfill = (v: unknown) => (typeof v === 'string' ? v.replace(/<+/g, ' ').trim() : v);
    // Names in the MRZ alphabet (ICAO 9303 transliteration drops accents: Ñ is N): an MRZ reader
    // can only ever return that form.
    const name = (v: unknown) =>
      typeof v === 'string'
        ? v
            .normalize('NFD')
            .replace(/[\u0300-\u036f]/g, '')
            .replace(/\s+/g, ' ')
            .trim()
        : v;
    scoreFields(
      [
        fieldScore(named('mrz_passporteye'), 'all'),
        fieldScore(named('mrz_passporteye'), half(file)),
      ],
      file,
      o,
      {
        mrzLines: [(e.mrz_lines as string[]).join('|'), lines],
        documentNumber: [unfill(e.document_number), fields.documentNumber],
        surname: [name(e.surname), name(fields.surname)],
        givenNames: [name(e.given_names), name(fields.givenNames)],
        dateOfBirth: [e.date_of_birth, yymmdd(fields.dateOfBirth)],
        expiryDate: [e.expiry_date, yymmdd(fields.expiryDate)],
        sex: [e.sex, fields.sex],
        nationality: [e.nationality, fields.nationality],
        issuingCountry: [e.issuing_state, fields.issuingCountry],
      },
    );
    exact.items++;
    exact.ms.push(o.ms);
    if (lines === (e.mrz_lines as string[]).join('|')) exact.correct++;
    else exact.failures.push(`${items[k]!.file}: got ${lines ?? String(o.error)}`);
    if (isValidSpecimen) {
      valid.items++;
      valid.ms.push(o.ms);
      if (o.ok && fields.checksValid === true) valid.correct++;
      else
        valid.failures.push(
          `${items[k]!.file}: checksValid ${String(fields.checksValid)} (${lines ?? String(o.error)})`,
        );
    } else {
      honest.items++;
      honest.ms.push(o.ms);
      if (fields.checksValid !== true) honest.correct++;
      else honest.failures.push(`${items[k]!.file}: reported valid`);
    }
  });
  return [valid, exact, honest];
}

function scoreSadl(): Score {
  const items = manifest('sa_driving_licence');
  const files = items.map((i) => join(dataDir, 'sa_driving_licence', (i.path ?? i.file)!));
  const out = runCli(['sadl', ...files]);
  const failures: string[] = [];
  let correct = 0;
  out.forEach((o, k) => {
    const e = items[k]!.expected.parsed as Record<string, unknown>;
    const f = (o.fields ?? {}) as Record<string, unknown>;
    // The manifest's names (licenseNumber, birthDate, gender '01') against ours.
    const pairs: Array<[string, unknown, unknown]> = [
      ['idNumber', e.idNumber, f.idNumber],
      ['idNumberType', e.idNumberType, f.idNumberType],
      ['idCountryOfIssue', e.idCountryOfIssue, f.idCountryOfIssue],
      ['surname', e.surname, f.surname],
      ['initials', e.initials, f.initials],
      ['gender', e.gender, f.genderCode],
      ['birthDate', e.birthDate, f.dateOfBirth],
      ['driverRestrictions', e.driverRestrictions, f.driverRestrictions],
      ['licenseCountryOfIssue', e.licenseCountryOfIssue, f.licenceCountryOfIssue],
      ['licenseIssueNumber', e.licenseIssueNumber, f.licenceIssueNumber],
      ['licenseNumber', e.licenseNumber, f.licenceNumber],
      ['licenseValidityStart', e.licenseValidityStart, f.validFrom],
      ['licenseValidityExpiry', e.licenseValidityExpiry, f.validTo],
      ['professionalDrivingPermitExpiry', e.professionalDrivingPermitExpiry, f.prdpExpiry],
      ['professionalDrivingPermitCodes', e.professionalDrivingPermitCodes, f.prdpCodes],
      ['vehicleLicenses', e.vehicleLicenses, f.vehicleLicences],
    ];
    const wrong = pairs
      .filter(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b))
      .map(([n]) => n);
    if (o.ok && wrong.length === 0) correct++;
    else
      failures.push(
        `${items[k]!.file}: ${o.ok ? `fields differ: ${wrong.join(', ')}` : String(o.error)}`,
      );
  });
  return {
    set: 'sa_driving_licence',
    items: items.length,
    correct,
    note: 'all 16 expected fields equal',
    ms: out.map((o) => o.ms),
    command: `npx boomgate-vision sadl <${items.length} payload>`,
    failures,
  };
}

const scores: Score[] = [];
for (const degradation of degradations.length ? degradations : [null]) {
  degraded = degradation;
  for (const set of sets) {
    const started = performance.now();
    if (set === 'plates') scores.push(await scorePlates());
    else if (set === 'mrz') scores.push(...(await scoreMrz()));
    else if (set === 'sa-plates') scores.push(await scoreSaPlates());
    else if (set === 'pdf417') scores.push(...scorePdf417());
    else if (set === 'sadl') scores.push(scoreSadl());
    else throw new Error(`Unknown set ${set}`);
    const took = Math.round((performance.now() - started) / 1000);
    process.stderr.write(`${named(set)}: done in ${took} s\n`);
  }
}

const pct = (s: Score) => (s.items ? `${((100 * s.correct) / s.items).toFixed(1)} %` : '—');
const table = [
  '| set | items | correct | accuracy | median ms | p95 ms | scored as |',
  '|---|---|---|---|---|---|---|',
  ...scores.map(
    (s) =>
      `| ${s.set} | ${s.items} | ${s.correct} | ${pct(s)} | ${Math.round(quantile(s.ms, 0.5))} | ${Math.round(quantile(s.ms, 0.95))} | ${s.note} |`,
  ),
].join('\n');
const SPLIT_ORDER = ['all', 'tune', 'held-out'];
fieldScores.sort(
  (a, b) =>
    fieldScoreSetOrder(a.set) - fieldScoreSetOrder(b.set) ||
    a.set.localeCompare(b.set) ||
    SPLIT_ORDER.indexOf(a.split) - SPLIT_ORDER.indexOf(b.split),
);
function fieldScoreSetOrder(set: string) {
  return set.includes('all regions')
    ? 0
    : set.startsWith('plates SA')
      ? 2
      : set.startsWith('plates')
        ? 1
        : 3;
}
const share = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '—');
const honesty = [
  '| set | split | readings | all fields right | fields | correct | correct and confident | uncertain (listed) | wrong but flagged | **silent errors** |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...fieldScores.map(
    (f) =>
      `| ${f.set} | ${f.split} | ${f.items} | ${f.exact} (${share(f.exact, f.items)}) | ${f.fields} | ${f.correct} | ${f.correctConfident} (${share(f.correctConfident, f.correct)}) | ${f.uncertain} | ${f.wrongFlagged} | **${f.silent}** |`,
  ),
].join('\n');
const silentList = fieldScores
  .filter((f) => f.split === 'all' && f.silentList.length)
  .map((f) => `### ${f.set}\n${f.silentList.map((l) => `- ${l}`).join('\n')}`)
  .join('\n\n');
const doc = `# Vision accuracy (development halves of shared/data)

Generated by \`npm run eval\` (= \`node --import tsx packages/vision/scripts/eval.ts\`) on ${new Date().toISOString().slice(0, 10)},
${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}. Data read from \`${relative(dataDir)}\`, never copied.
Timings are the CLI's per-image \`ms\` (decode + read, one process, engines warm after the first image);
the machine is shared, so they are indicative.

${table}

## Never silently wrong: confident, flagged and silent fields

Each reading lists in \`uncertain\` the fields it could not confirm (a check digit, or two independent
readings that agree). A wrong field not listed there is a **silent error**; a correct field not listed is
confident (the guard need not confirm it). Scored fields: plates \`plateNumber\`; MRZ \`mrzLines\`,
\`documentNumber\`, \`surname\`, \`givenNames\`, \`dateOfBirth\`, \`expiryDate\`, \`sex\`,
\`nationality\`, \`issuingCountry\`. A failed read claims nothing (its fields count as flagged). Splits:
sha-256 of the file name, even first byte = \`tune\` (methods were tuned looking at it), odd = \`held-out\`.

${honesty}

${silentList ? `### Silent errors\n\n${silentList}` : 'No silent errors.'}

Commands (from the repository root):
${[...new Set(scores.map((s) => `- \`${s.command}\``))].join('\n')}

## Misses
${scores
  .filter((s) => s.failures.length)
  .map((s) => `### ${s.set}\n${s.failures.map((f) => `- ${f}`).join('\n')}`)
  .join('\n\n')}
`;
process.stdout.write(`${table}\n\n${honesty}\n\n${silentList}\n`);
if (!write) process.exit(0);
const outFile = join(repoRoot, 'docs/vision/accuracy.md');
if (!existsSync(dirname(outFile))) mkdirSync(dirname(outFile), { recursive: true });
// Hand-written `## Method notes` and the `## Faces` section (`npm run eval:faces`) come last: keep them.
const previous = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
const notesAt = previous.indexOf('\n## Method notes');
const facesAt = notesAt !== -1 ? notesAt : previous.indexOf('\n## Faces\n');
writeFileSync(outFile, facesAt === -1 ? doc : `${doc.trimEnd()}\n${previous.slice(facesAt)}`);
process.stdout.write(`Wrote ${relative(outFile)}\n`);
