// A CommonJS module of the integrator's (NodeNext resolves loc-js through its `require` conditions).
import { loadLoc, type LocHandle, type LocSelectResult } from 'loc-js/embed';
import { findCodes, normalizeCode, type FoundCode } from 'loc-js/code';
import { LocPicker, type LocPickerProps } from 'loc-js/react';

export const load: typeof loadLoc = loadLoc;
export const code: string | null = normalizeCode('fr0rmbcly0');
export const found: FoundCode[] = findCodes('FR-0RMB-CLY0');
export type Picked = Pick<LocSelectResult, 'loc_code' | 'cell'> & { handle?: LocHandle };
export const Picker: typeof LocPicker = LocPicker;
export const props: LocPickerProps = { baseUrl: 'https://loc.example', getSession: async () => 'sid.secret' };
