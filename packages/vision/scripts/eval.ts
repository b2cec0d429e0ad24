/**
 * `npm run eval`: runs `boomgate-vision` on the evaluation sets in ../shared/data (never copied into the
 * repo), scores the output against each manifest and writes docs/vision/accuracy.md.
 * Options: --data <dir> (default ../shared/data beside the repository), --sets plates,pdf417,mrz,sadl
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageDir, '../..');
const bin = join(packageDir, 'bin/boomgate-vision.js');

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dataDir = resolve(arg('--data') ?? join(repoRoot, '../shared/data'));
const sets = (arg('--sets') ?? 'plates,pdf417,mrz,sadl').split(',');

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
  ).items;
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

function scorePlates(): Score {
  const items = manifest('plates_openalpr');
  const files = items.map((i) => join(dataDir, 'plates_openalpr', (i.path ?? i.file)!));
  const out = runCli(['read', '--type', 'plate', ...files]);
  const failures: string[] = [];
  let correct = 0;
  out.forEach((o, k) => {
    const expected = items[k]!.expected.plate as string;
    const got = (o.fields as Record<string, unknown> | undefined)?.plateNumber;
    if (o.ok && got === expected) correct++;
    else failures.push(`${items[k]!.file}: expected ${expected}, got ${String(got ?? o.error)}`);
  });
  return {
    set: 'plates_openalpr',
    items: items.length,
    correct,
    note: 'exact plateNumber',
    ms: out.map((o) => o.ms),
    command: `npx boomgate-vision read --type plate <${items.length} images>`,
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

function scoreMrz(): Score[] {
  const items = manifest('mrz_passporteye');
  const files = items.map((i) => join(dataDir, 'mrz_passporteye', (i.path ?? i.file)!));
  const out = runCli(['read', '--type', 'passport', ...files]);
  const valid: Score = {
    set: 'mrz_passporteye (check-valid specimens: all checks pass)',
    items: 0,
    correct: 0,
    note: 'ok and checksValid',
    ms: [],
    command: `npx boomgate-vision read --type passport <${items.length} images>`,
    failures: [],
  };
  const exact: Score = {
    ...valid,
    set: 'mrz_passporteye (all specimens: MRZ lines exact)',
    note: 'mrzLines equal the transcription',
    ms: [],
    failures: [],
  };
  const honest: Score = {
    ...valid,
    set: 'mrz_passporteye (invalid specimens: reported invalid)',
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
for (const set of sets) {
  const started = performance.now();
  if (set === 'plates') scores.push(scorePlates());
  else if (set === 'pdf417') scores.push(...scorePdf417());
  else if (set === 'mrz') scores.push(...scoreMrz());
  else if (set === 'sadl') scores.push(scoreSadl());
  else throw new Error(`Unknown set ${set}`);
  process.stderr.write(`${set}: done in ${Math.round((performance.now() - started) / 1000)} s\n`);
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
const doc = `# Vision accuracy (development halves of shared/data)

Generated by \`npm run eval\` (= \`node --import tsx packages/vision/scripts/eval.ts\`) on ${new Date().toISOString().slice(0, 10)},
${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}. Data read from \`${relative(dataDir)}\`, never copied.
Timings are the CLI's per-image \`ms\` (decode + read, one process, engines warm after the first image);
the machine is shared, so they are indicative.

${table}

Commands (from the repository root):
${[...new Set(scores.map((s) => `- \`${s.command}\``))].join('\n')}

## Misses
${scores
  .filter((s) => s.failures.length)
  .map((s) => `### ${s.set}\n${s.failures.map((f) => `- ${f}`).join('\n')}`)
  .join('\n\n')}
`;
const outFile = join(repoRoot, 'docs/vision/accuracy.md');
if (!existsSync(dirname(outFile))) mkdirSync(dirname(outFile), { recursive: true });
// `npm run eval:faces` owns the "## Faces" section (written last in the file): keep it.
const previous = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
const facesAt = previous.indexOf('\n## Faces\n');
writeFileSync(outFile, facesAt === -1 ? doc : `${doc.trimEnd()}\n${previous.slice(facesAt)}`);
process.stdout.write(`${table}\n\nWrote ${relative(outFile)}\n`);
