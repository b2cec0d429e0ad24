import { afterEach, describe, expect, it } from 'vitest';

import { startHikvisionSimulator } from '../simulators/hikvision';
import { startHttpSimulator } from '../simulators/http';
import { startModbusSimulator } from '../simulators/modbus';
import { startShellySimulator } from '../simulators/shelly';
import { createHikvisionDriver } from './hikvision';
import { createHttpDriver } from './http';
import { createModbusDriver } from './modbus';
import { createShellyDriver } from './shelly';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
const track = <T extends { close(): Promise<void> }>(simulator: T) => {
  closers.push(() => simulator.close());
  return simulator;
};
const at = (port: number) => `http://127.0.0.1:${port}`;

describe('Shelly driver', () => {
  it('sends Switch.Set with toggle_after over digest SHA-256 and confirms the output', async () => {
    const device = track(await startShellySimulator({ password: 'secret' }));
    const driver = createShellyDriver({
      url: at(device.port),
      password: 'secret',
      pulseSeconds: 2,
    });
    const outcome = await driver.pulse();
    expect(outcome.opened).toBe(true);
    expect(device.commands).toEqual(['Switch.Set id=0 on=true toggle_after=2']);
  });

  it('reports not opened when the relay answers with an RPC error', async () => {
    const device = track(await startShellySimulator({ fail: true }));
    const outcome = await createShellyDriver({ url: at(device.port) }).pulse();
    expect(outcome).toEqual({ opened: false, detail: 'Switch.Set refused: Device overheated' });
  });

  it('stops after the credentials are refused', async () => {
    const device = track(await startShellySimulator({ password: 'secret' }));
    const driver = createShellyDriver({ url: at(device.port), password: 'wrong' });
    expect((await driver.pulse()).opened).toBe(false);
    expect((await driver.pulse()).detail).toMatch(/refused the user and password/);
    expect(device.commands).toEqual([]);
  });

  it('reports not opened when nothing answers', async () => {
    const device = await startShellySimulator({});
    await device.close();
    const outcome = await createShellyDriver({ url: at(device.port), timeoutMs: 500 }).pulse();
    expect(outcome.opened).toBe(false);
  });
});

describe('Hikvision driver', () => {
  it('puts ctrlMode open and confirms from barrierGateStatus', async () => {
    const device = track(await startHikvisionSimulator({ password: 'pw' }));
    const outcome = await createHikvisionDriver({ url: at(device.port), password: 'pw' }).pulse();
    expect(outcome).toEqual({ opened: true, detail: 'barrierGateStatus reports open' });
    expect(device.commands).toEqual(['PUT barrierGate channel=1 ctrlMode=open']);
  });

  it('a locked barrier that answers OK but does not move is not opened', async () => {
    const device = track(await startHikvisionSimulator({ password: 'pw', locked: true }));
    const driver = createHikvisionDriver({
      url: at(device.port),
      password: 'pw',
      confirmTimeoutMs: 200,
    });
    const outcome = await driver.pulse();
    expect(outcome.opened).toBe(false);
    expect(outcome.detail).toMatch(/status stayed 1/);
  });

  it('stops after two 401s and sends nothing more', async () => {
    const device = track(await startHikvisionSimulator({ password: 'pw' }));
    const driver = createHikvisionDriver({ url: at(device.port), password: 'wrong' });
    const first = await driver.pulse();
    const second = await driver.pulse();
    expect(first.opened).toBe(false);
    expect(second.detail).toMatch(/stopped sending/);
    expect(device.authFailures).toBe(1);
    expect(device.commands).toEqual([]);
  });

  it('reports a device error as not opened', async () => {
    const device = track(await startHikvisionSimulator({ password: 'pw', fail: true }));
    const outcome = await createHikvisionDriver({ url: at(device.port), password: 'pw' }).pulse();
    expect(outcome).toEqual({ opened: false, detail: 'barrierGate answered HTTP 500' });
  });
});

describe('Modbus driver', () => {
  it('pulses the coil on then off and confirms from the position input', async () => {
    const device = track(await startModbusSimulator({ holdOpenMs: 2_000 }));
    const driver = createModbusDriver({
      url: `modbus://127.0.0.1:${device.port}`,
      coil: 2,
      positionInput: 2,
      pulseMs: 50,
    });
    const outcome = await driver.pulse();
    expect(outcome.opened).toBe(true);
    expect(device.commands).toEqual(['write coil 2 ON', 'write coil 2 OFF']);
    expect(device.coil(2)).toBe(false);
  });

  it('a relay that does not act leaves the input closed: not opened, coil still switched off', async () => {
    const device = track(await startModbusSimulator({ fail: true }));
    const driver = createModbusDriver({
      url: `modbus://127.0.0.1:${device.port}`,
      pulseMs: 20,
      confirmTimeoutMs: 100,
    });
    const outcome = await driver.pulse();
    expect(outcome.opened).toBe(false);
    expect(device.commands).toEqual(['write coil 0 ON', 'write coil 0 OFF']);
  });

  it('no module at the address is not opened', async () => {
    const device = await startModbusSimulator({});
    await device.close();
    const outcome = await createModbusDriver({ url: `modbus://127.0.0.1:${device.port}` }).pulse();
    expect(outcome.opened).toBe(false);
  });
});

describe('generic HTTP driver', () => {
  it('sends the configured request and needs a 2xx with the expected text', async () => {
    const device = track(await startHttpSimulator({}));
    const url = `${at(device.port)}/relay/0`;
    expect(
      (await createHttpDriver({ url, body: '{"turn":"on"}', expect: '"ok":true' }).pulse()).opened,
    ).toBe(true);
    expect((await createHttpDriver({ url, expect: 'done' }).pulse()).opened).toBe(false);
    expect(device.commands).toEqual(['POST /relay/0 {"turn":"on"}', 'POST /relay/0']);
  });

  it('a device error is not opened', async () => {
    const device = track(await startHttpSimulator({ fail: true }));
    const outcome = await createHttpDriver({ url: at(device.port), method: 'GET' }).pulse();
    expect(outcome).toEqual({ opened: false, detail: 'the device answered HTTP 500' });
  });
});
