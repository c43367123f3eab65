export { Topology, type TopologyOptions, type ProcessKind, type ServiceKind } from './topology/topology.js';
export type { ExitRecord } from './topology/process.js';
export { runChaos, type ChaosOptions, type ChaosReport } from './run.js';
export { FAULTS, type Fault, type Mode } from './faults.js';
export type { PhaseResult } from './report.js';
export { BffClient, type Reply } from './load/client.js';
export { createCast, guestAsk, type Account, type Cast } from './load/cast.js';
