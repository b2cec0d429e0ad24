import { describe, expect, it, vi } from 'vitest';

import { runCli } from './cli';

describe('runCli', () => {
  it('--help lists run and simulate', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await runCli(['--help'])).toBe(0);
      const text = write.mock.calls.map((call) => String(call[0])).join('');
      expect(text).toMatch(/boomgate-agent run --server URL --token T --device/);
      expect(text).toMatch(/boomgate-agent simulate <shelly\|hikvision\|modbus\|http> --port N/);
    } finally {
      write.mockRestore();
    }
  });

  it('refuses run without its required options', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runCli(['run', '--server', 'http://127.0.0.1:1'])).toBe(2);
      expect(String(write.mock.calls[0]?.[0])).toMatch(/needs --server, --token, --device/);
    } finally {
      write.mockRestore();
    }
  });
});
