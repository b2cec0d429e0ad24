import type { BarrierDeviceKind } from '@boomgate/contracts/barriers';

import { createHikvisionDriver } from './drivers/hikvision';
import { createHttpDriver } from './drivers/http';
import { createModbusDriver } from './drivers/modbus';
import { createShellyDriver } from './drivers/shelly';
import type { BarrierDriver } from './drivers/types';

export type DeviceSettings = {
  kind: BarrierDeviceKind;
  url: string;
  user?: string;
  password?: string;
  /** Relay/switch id (Shelly), channel (Hikvision), coil (Modbus). */
  output?: number;
  /** Discrete input wired to the open contact (Modbus). */
  positionInput?: number;
  /** Generic HTTP: method, body and the text a successful answer contains. */
  httpMethod?: string;
  httpBody?: string;
  httpExpect?: string;
};

export function createDriver(settings: DeviceSettings): BarrierDriver {
  switch (settings.kind) {
    case 'shelly':
      return createShellyDriver({
        url: settings.url,
        password: settings.password,
        switchId: settings.output,
      });
    case 'hikvision':
      return createHikvisionDriver({
        url: settings.url,
        user: settings.user,
        password: settings.password,
        channel: settings.output,
      });
    case 'modbus':
      return createModbusDriver({
        url: settings.url,
        coil: settings.output,
        positionInput: settings.positionInput ?? settings.output,
      });
    case 'http':
      return createHttpDriver({
        url: settings.url,
        method: settings.httpMethod,
        body: settings.httpBody,
        expect: settings.httpExpect,
        user: settings.user,
        password: settings.password,
      });
  }
}
