import { describe, expect, it } from 'vitest';

import { checkImageFile, MAX_IMAGE_BYTES, readFileAsDataUrl } from './image-file';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('checkImageFile (spec §5: one image, ≤ 10485760 bytes, png/jpg/jpeg/webp)', () => {
  it.each([
    ['a.png', 'image/png'],
    ['a.jpg', 'image/jpeg'],
    ['a.jpeg', 'image/jpeg'],
    ['a.webp', 'image/webp'],
    ['a.jpg', ''],
  ])('accepts %s (%s)', (name, type) => {
    expect(checkImageFile(file(name, type))).toBeNull();
  });

  it.each([
    ['a.gif', 'image/gif'],
    ['a.pdf', 'application/pdf'],
    ['a.heic', ''],
  ])('refuses %s (%s)', (name, type) => {
    expect(checkImageFile(file(name, type))).toBe('unsupported-type');
  });

  it('accepts exactly 10MB and refuses one byte more', () => {
    expect(MAX_IMAGE_BYTES).toBe(10_485_760);
    expect(checkImageFile(file('a.jpg', 'image/jpeg', 10_485_760))).toBeNull();
    expect(checkImageFile(file('a.jpg', 'image/jpeg', 10_485_761))).toBe('too-large');
  });
});

describe('readFileAsDataUrl', () => {
  it('reads a file as a data URL', async () => {
    const url = await readFileAsDataUrl(new Blob(['hi'], { type: 'image/png' }));
    expect(url).toBe('data:image/png;base64,aGk=');
  });
});
