import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

// @ts-expect-error -- a plain ES module script without type declarations
import { checkDirectory, findHardcodedText } from './hardcoded-text.mjs';

type Finding = { line: number; text: string };
const find = (source: string) =>
  (findHardcodedText as (file: string, text: string) => Finding[])('screen.tsx', source).map(
    (finding) => finding.text,
  );

describe('hard-coded text check (issue 19)', () => {
  it('finds JSX text, text props, toast texts and error fallbacks written in English', () => {
    expect(
      find(`
        export function Screen() {
          toast({ title: 'Entry Refused', description: \`Welcome \${name}\` });
          const message = getErrorMessage(error, 'Could not log entry');
          return (
            <Card title="Scan Licence Plate">
              <p>Scan Again</p>
              <Input placeholder={'Plate number'} aria-label="Plate" />
            </Card>
          );
        }
      `),
    ).toEqual([
      'Entry Refused',
      'Welcome',
      'Could not log entry',
      'Scan Licence Plate',
      'Scan Again',
      'Plate number',
      'Plate',
    ]);
  });

  it('accepts texts from the catalogues, symbols, the brand and format examples', () => {
    expect(
      find(`
        export function Screen() {
          toast({ title: t('toasts.refused'), description: statusText(t, status) });
          return (
            <Card title={t('title')} description={title}>
              <p>{t('scanAgain')} · {plate}</p>
              <span>Boomgate</span>
              <Input placeholder="https://" />
              <Input placeholder="YYYY-MM-DD" />
              <Input placeholder="manager@example.com, ops@example.com" />
              <code className="font-mono">{value}</code>
            </Card>
          );
        }
      `),
    ).toEqual([]);
  });

  it('finds nothing in the web app: every screen speaks through the catalogues', () => {
    const web = fileURLToPath(new URL('../../apps/web/src', import.meta.url));
    expect((checkDirectory as (dir: string) => string[])(web)).toEqual([]);
  });
});
