import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import enErrors from '@/locales/en/errors.json';

import { i18next } from './i18n';
import { contractMessage, translateContractMessage, translateServerError } from './server-errors';

const contractsDir = path.resolve(__dirname, '../../../../../packages/contracts/src');

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

  it('lists only messages the shared contracts really say (the English catalogue is the key)', () => {
    const source = readdirSync(contractsDir)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(path.join(contractsDir, file), 'utf8'))
      .join('\n');
    const missing = Object.values(enErrors.contract).filter(
      (message) => !source.includes(`'${message}'`) && !source.includes(`"${message}"`),
    );
    expect(missing).toEqual([]);
  });
});
