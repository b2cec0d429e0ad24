import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { i18next } from './i18n';
import { contractMessage, translateContractMessage, translateServerError } from './server-errors';

const repoRoot = path.resolve(__dirname, '../../../../..');

describe('server and contract messages in the user language (issue 19)', () => {
  it('keeps the English messages exactly as the server and the contracts say them', () => {
    expect(
      translateServerError('INVALID', 'Plate number must have 2 to 10 letters or digits.'),
    ).toBe('Plate number must have 2 to 10 letters or digits.');
    expect(translateServerError('NOT_FOUND', 'Vehicle not found')).toBe('Vehicle not found');
    expect(translateContractMessage('Passwords do not match')).toBe('Passwords do not match');
  });

  it('words a contract message it knows, else the code, else the server message', async () => {
    await i18next.changeLanguage('zu');
    expect(translateServerError('INVALID', 'A rig has at most 2 trailers')).toBe(
      'Inqola ingaba namatreyila angu-2 kuphela',
    );
    expect(translateServerError('INVALID', 'Something only the server says')).toBe(
      'Okunye kwalokho okuthunyelwe akulungile. Sicela ukuhlole bese uzama futhi.',
    );
    expect(translateServerError('DEVICE_REVOKED', 'Device revoked')).toBe(
      'Le divayisi ihoxiswe ngumlawuli.',
    );
    expect(translateServerError(undefined, 'Plain text')).toBe('Plain text');
    expect(contractMessage('Passwords do not match')).toBe('Amaphasiwedi awafani');
    expect(contractMessage('Not in the catalogue')).toBe('Not in the catalogue');
    expect(contractMessage(undefined)).toBeUndefined();
  });

  it('words the rarer contract messages too, and those built from a template', async () => {
    await i18next.changeLanguage('pt');
    expect(translateServerError('INVALID', 'At least 1 day')).toBe('Pelo menos 1 dia');
    expect(contractMessage('Name the camera')).toBe('Dê um nome à câmara');
    expect(contractMessage('An ID number has 13 digits.')).toBe(
      'Um número de identificação tem 13 algarismos.',
    );
    expect(contractMessage("Trailer 2 needs the truck's plate number.")).toBe(
      'O reboque 2 precisa da matrícula do camião.',
    );
    expect(contractMessage('Password must be at least 12 characters')).toBe(
      'A palavra-passe deve ter pelo menos 12 caracteres',
    );
    expect(contractMessage('Send either image or imageCaptureId, not both')).toBe(
      'Envie image ou imageCaptureId, não ambos',
    );
    // A repeated hole must say the same thing twice, else it is not this message.
    expect(contractMessage('Send either image or photoCaptureId, not both')).toBe(
      'Send either image or photoCaptureId, not both',
    );
    await i18next.changeLanguage('en');
    expect(contractMessage("Trailer 2 needs the truck's plate number.")).toBe(
      "Trailer 2 needs the truck's plate number.",
    );
  });

  it("words the daily routes' own messages, else falls back to the code's sentence", async () => {
    await i18next.changeLanguage('st');
    expect(translateServerError('UNAUTHENTICATED', 'Invalid username or password')).toBe(
      'Lebitso la mosebedisi kapa phasewete ha di nepahale',
    );
    expect(translateServerError('CONFLICT', 'Vehicle CA 123-456 is already registered.')).toBe(
      'Koloi CA 123-456 e se e ngodisitswe.',
    );
    // Its holes carry English words (a plural ending): the code's sentence says it instead.
    expect(
      translateServerError(
        'RATE_LIMITED',
        'Too many failed sign-in attempts. Try again in 2 minutes.',
      ),
    ).toBe('Diteko di ngata haholo. Ka kopo ema hanyane mme o leke hape.');
    // A contract message is only a contract message: translateContractMessage leaves server ones.
    expect(contractMessage('Invalid username or password')).toBe('Invalid username or password');
    await i18next.changeLanguage('en');
  });

  it(
    'words every message the shared contracts say, and only those (scripts/ci/contract-messages.mjs)',
    { timeout: 30_000 },
    () => {
      const run = spawnSync(
        process.execPath,
        [path.join(repoRoot, 'scripts/ci/contract-messages.mjs')],
        { encoding: 'utf8' },
      );
      expect(`${run.stdout}${run.stderr}`).toContain('worded by the catalogue');
      expect(run.status).toBe(0);
    },
  );
});
