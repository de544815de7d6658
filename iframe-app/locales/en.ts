/**
 * English, the frame's source language: every string the visitor reads or hears, by key. Written by
 * the loc developers. Bundled in frame.js, and the fallback of every other catalogue; the other
 * languages translate exactly these keys (a test checks that each has them all, and the same
 * `{placeholders}`).
 *
 * A message is a string with `{name}` placeholders, or, where it counts something, one string per
 * plural category of the language (`Intl.PluralRules`: English has `one` and `other`, Arabic six).
 */
export const EN = {
  // The page and its static parts (frame.html).
  'frame.title': 'Choose a location',
  'map.label': 'Choose a location',
  // What <loc-picker required> says while nothing is chosen (onReady's requiredMessage).
  'field.required': 'Choose a location on the map.',
  'map.roleDescription': 'map',
  'map.help':
    'Arrow keys move the map under the crosshair (one 3 metre cell at a time when zoomed in), Enter chooses the point at the crosshair, plus and minus zoom, Escape clears the choice.',
  'testMode.badge': 'Test mode',

  // Map controls (map.ts).
  'control.zoomIn': 'Zoom in',
  'control.zoomOut': 'Zoom out',
  'control.locate': 'Show my location',
  'locate.unsupported': 'This browser cannot tell your location.',
  'locate.unavailable': 'Your location is not available. Allow location access, or move the map by hand.',

  // The result panel (panel.ts).
  'panel.chosen': 'Chosen location',
  'panel.previewed': 'Previewed location',
  'panel.finding': 'Finding the code',
  'panel.findingShown': 'Finding the code…',
  'panel.copy': 'Copy code',
  'panel.copied': 'Copied',
  'panel.open': 'Open',
  'panel.openLabel': 'Open {code} in a new tab',
  'panel.confirm': 'Use this location',
  'announce.preview': '{code}, {address}. Press Enter again, or choose “Use this location”, to confirm.',
  'announce.chosen': 'Chosen: {code}, {address}.',
  'announce.copied': 'Copied {code}.',
  'announce.copyByHand': '{code} is selected; press Control C or Command C to copy it.',
  'announce.cleared': 'Choice cleared.',

  // What the keys did (move-announcement.ts).
  'move.zoom': 'Zoom {zoom} of {max}.',
  'move.gridReached': 'Each arrow now moves one 3 metre cell.',
  'move.moved': 'Moved {movement}.',
  'move.both': '{northSouth} and {eastWest}',
  'move.north': '{distance} north',
  'move.south': '{distance} south',
  'move.east': '{distance} east',
  'move.west': '{distance} west',
  'move.cells': { one: '{count} cell', other: '{count} cells' },
  'move.steps': { one: '{count} step', other: '{count} steps' },
  'move.back': 'Back where you started.',
  'move.enterChooses': 'Enter chooses this cell.',

  // The message line: the frame's own troubles (main.ts) and what the visitor reads for each error
  // the page's onError hears (lifecycle.ts); the page gets the developer's message instead.
  'start.failed': 'This map could not start. Reload the page and try again.',
  'start.notEmbedded': 'This map is meant to be embedded in a page with loc-embed.js.',
  'error.retryAfter': '{message} (about {minutes} min)',
  'error.session_expired': 'This map has expired. Reload the page to choose a location.',
  'error.invalid_session': 'This map cannot be used right now. Reload the page and try again.',
  'error.key_inactive': 'This map cannot be used right now.',
  'error.partner_required': 'This map cannot be used right now.',
  'error.origin_mismatch': 'This map cannot be used on this page.',
  'error.load_timeout': 'The map did not load in time. Reload the page and try again.',
  'error.rate_limited': 'Too many locations were looked up just now. Try again a little later.',
  'error.session_limit_reached': 'This map has looked up as many locations as it may. Reload the page to choose a location.',
  'error.network': 'The location service cannot be reached. Check the connection and try again.',
  'error.unsupported_location': 'There are no codes here. Choose a point on land or near the coast.',
  'error.outside_session_area': 'This location is outside the area this site accepts. Choose a point inside it.',
  'error.invalid_code': 'This is not a location code.',
  'error.code_not_found': 'No location has this code.',
  'error.service_unavailable': 'The location service is busy. Try again in a moment.',
  'error.internal_error': 'Something went wrong. Try again.',

  // The search box (search.ts, search-results.ts).
  'search.label': 'Search for a place, coordinates or a code',
  'search.placeholder': 'Place, coordinates or code',
  'search.results': 'Search results',
  'search.coordinates': 'Coordinates',
  'search.swapped': 'Read as longitude, latitude',
  'search.exact': 'Location code',
  'search.didYouMean': 'Did you mean {code}?',
  'search.fromMap': '{distance} from the map',
  'search.metres': '{count} m',
  'search.kilometres': '{count} km',
  'search.outsideArea': 'outside the area this site accepts',
  'search.noPlace': 'No place starts with “{text}”.',
  'search.noCode': 'No location has this code, nor any code one slip away from it.',
  'search.notACode': 'No location has this code. Did you mean one of these?',
  'search.doubted': 'This code is {distance} from the map. Did you mean one of these?',
  'search.maybe': 'Did you mean one of these?',
  'search.count': { one: '{count} result. Use the down arrow to reach it.', other: '{count} results. Use the up and down arrows to move through them.' },
  'search.askFar': '{code} is {distance} from the map. Show it?',
  'search.askOutside': '{code} is outside the area this site accepts and cannot be chosen here. Show where it is?',
  'search.shownOutside': 'Map moved to {code}, outside the area this site accepts.',
  'search.show': 'Show it',
  'search.cancel': 'Cancel',
  'search.moved': 'Map moved to {place}.',
  'search.failed': 'Search is not available right now. Try again in a moment.',
  'search.spent': 'This map cannot search any more. You can still choose a point on the map.',
} satisfies Record<string, string | { one?: string; other: string }>;

/** The key of a message: one of English's. */
export type MessageKey = keyof typeof EN;

/** A message that counts something: a form per plural category of its language (`other` always). */
export type PluralMessage = { [C in Intl.LDMLPluralRule]?: string } & { other: string };

/** A language's messages: every key of English, plural where English's is. Each catalogue `satisfies` it. */
export type Catalogue = { [K in MessageKey]: (typeof EN)[K] extends string ? string : PluralMessage };
