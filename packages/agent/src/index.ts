export {
  type Agent,
  type AgentEvent,
  type AgentOptions,
  AGENT_CONNECT_PATH,
  startAgent,
} from './agent';
export { createCommandGuard } from './command-guard';
export { type DeviceSettings, createDriver } from './devices';
export type { BarrierDriver, PulseOutcome } from './drivers/types';
export type { Simulator } from './simulators/common';
export { startHikvisionSimulator } from './simulators/hikvision';
export { startHttpSimulator } from './simulators/http';
export { startModbusSimulator } from './simulators/modbus';
export { startShellySimulator } from './simulators/shelly';
