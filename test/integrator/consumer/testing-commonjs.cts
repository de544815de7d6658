// A CommonJS test module of the integrator's: NodeNext resolves loc-js/testing through its `require` conditions.
import { createFakeLoc, pickLocation, type FakeLoc } from 'loc-js/testing';

export const fake: FakeLoc = createFakeLoc();
export const pick: typeof pickLocation = pickLocation;
