/**
 * Coordinates as people paste them: a decimal pair (with or without hemisphere letters and degree
 * signs), degrees-minutes-seconds or degrees and decimal minutes, a Google Maps or OpenStreetMap link,
 * a `geo:` URI. Pure and small: the server's search and the frame's search box both read with it, the
 * frame without asking the service (its bundle has a size budget).
 *
 * Order. A pair is read latitude first, the order of Google Maps, OpenStreetMap, GPS devices and ISO
 * 6709. Hemisphere letters, when given, decide instead (`2.29E 48.85N` is 48.85, 2.29). Without them,
 * a first number that cannot be a latitude (beyond ±90) beside a second that can is read as
 * longitude, latitude, and said so (`swapped`): the pair has one reading, and the visitor is told
 * which. Anything out of range, or with conflicting letters, is not coordinates.
 */

export interface Coordinates {
  lat: number;
  lng: number;
  /** Read as longitude, latitude: the first number could not be a latitude and no letters said otherwise. */
  swapped: boolean;
}

/** The longest pair read, characters: `48° 51' 29.99" N, 002° 17' 40.20" E` is 36. */
const PAIR_MAX = 64;
const NUMBER = String.raw`\d+(?:\.\d+)?`;
const SIGNED = String.raw`[-+]?\d+(?:\.\d+)?`;

/**
 * One coordinate without its letter: a sign, degrees, optional minutes and seconds. Minutes follow
 * whole degrees after a degree sign or a space, seconds whole minutes after a prime or a space:
 * `48 51 30 N` is degrees-minutes-seconds as a GPS prints it. No lookbehind: older Safari cannot
 * compile one, and the frame would not start.
 */
const BODY = String.raw`([-+]?)\s*(${NUMBER})(?:(?:\s*°\s*|\s+)(${NUMBER})(?:(?:\s*'\s*|\s+)(${NUMBER})(?:\s*")?|\s*')?|\s*°)?`;
/** Between the two: punctuation, a space, or the end of a mark (`48°N,2°E`); never nothing between two digits. */
const pair = (part: string) => new RegExp(String.raw`^${part}(?:\s*[,;/]\s*|\s+|\b)${part}$`, 'i');
/** Letters after each number, or none: `48.85N 2.29E`, `48.85, 2.29`. */
const LETTERS_AFTER = pair(String.raw`${BODY}\s*([NSEW]?)`);
/** Letters before each number: `N 48.85 E 2.29`. Apart: a letter after the first would be the second's. */
const LETTERS_BEFORE = pair(String.raw`([NSEW])\s*${BODY}`);

/** Links: the place's pin first (Google's `!3d…!4d…`, OpenStreetMap's marker), then the query or the view's centre. */
const LINKS: RegExp[] = [
  new RegExp(String.raw`!3d(${SIGNED})!4d(${SIGNED})`),
  new RegExp(String.raw`^(?=.*[?&]mlat=(${SIGNED}))(?=.*[?&]mlon=(${SIGNED}))`),
  new RegExp(String.raw`[?&](?:q|query|ll|sll|center|destination|daddr)=(${SIGNED}),[\s+]*(${SIGNED})`),
  new RegExp(String.raw`@(${SIGNED}),(${SIGNED})`),
  new RegExp(String.raw`[#&?]map=\d+(?:\.\d+)?/(${SIGNED})/(${SIGNED})`),
  new RegExp(String.raw`^geo:(${SIGNED}),(${SIGNED})`, 'i'),
];

/** The coordinates `text` holds, or null when it holds none, or none in range. */
export function parseCoordinates(text: string): Coordinates | null {
  const input = text
    .trim()
    // The primes, quotes and minus signs that word processors and other keyboards write.
    .replace(/[′’‘´`]/g, "'")
    .replace(/[″”“]|''/g, '"')
    .replace(/[º˚]/g, '°')
    .replace(/[−–]/g, '-');
  if (/^(?:https?:\/\/|geo:)/i.test(input)) return fromLink(input);
  // A pair is short; longer text is a name, and is not handed to the patterns below.
  if (input.length > PAIR_MAX) return null;
  let first: Part | null;
  let second: Part | null;
  let m = LETTERS_AFTER.exec(input);
  if (m !== null) {
    first = part(m[5], m.slice(1, 5));
    second = part(m[10], m.slice(6, 10));
  } else if ((m = LETTERS_BEFORE.exec(input)) !== null) {
    first = part(m[1], m.slice(2, 6));
    second = part(m[6], m.slice(7, 11));
  } else {
    return null;
  }
  if (first === null || second === null) return null;
  if (first.axis === second.axis && first.axis !== null) return null;
  if (first.axis === 'lng' || second.axis === 'lat') return inRange(second.value, first.value, false);
  if (first.axis === null && second.axis === null && Math.abs(first.value) > 90 && Math.abs(second.value) <= 90) {
    return inRange(second.value, first.value, true);
  }
  return inRange(first.value, second.value, false);
}

interface Part {
  value: number;
  /** What its letter says it is; null without one. */
  axis: 'lat' | 'lng' | null;
}

/** One coordinate: its letter (or ''), and BODY's four groups: sign, degrees, minutes, seconds. */
function part(letter: string, [sign, degrees, minutes, seconds]: string[]): Part | null {
  letter = letter.toUpperCase();
  if ((minutes !== undefined && degrees.includes('.')) || (seconds !== undefined && minutes.includes('.'))) return null;
  const min = Number(minutes ?? 0);
  const sec = Number(seconds ?? 0);
  if (min >= 60 || sec >= 60) return null;
  // A sign and a letter would say the hemisphere twice, perhaps differently: not guessed.
  if (letter && sign) return null;
  const magnitude = Number(degrees) + min / 60 + sec / 3600;
  const negative = sign === '-' || letter === 'S' || letter === 'W';
  return { value: negative ? -magnitude : magnitude, axis: letter === '' ? null : letter === 'N' || letter === 'S' ? 'lat' : 'lng' };
}

function fromLink(url: string): Coordinates | null {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // A stray % in a pasted link: read it as it is.
  }
  for (const pattern of LINKS) {
    const m = pattern.exec(decoded);
    if (m !== null) return inRange(Number(m[1]), Number(m[2]), false);
  }
  return null;
}

function inRange(lat: number, lng: number, swapped: boolean): Coordinates | null {
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng, swapped } : null;
}
