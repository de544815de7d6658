/**
 * German. Source: translated from English (en.ts) by the loc developers with machine assistance; not
 * yet reviewed by a native speaker. Reports of wording that reads wrong are welcome.
 */
import type { Catalogue } from './en.ts';

export default {
  'frame.title': 'Ort auswählen',
  'map.label': 'Ort auswählen',
  'map.roleDescription': 'Karte',
  'map.help':
    'Die Pfeiltasten verschieben die Karte unter dem Fadenkreuz (herangezoomt jeweils um ein 3-Meter-Feld), die Eingabetaste wählt den Punkt unter dem Fadenkreuz, Plus und Minus zoomen, Escape hebt die Auswahl auf.',
  'testMode.badge': 'Testmodus',

  'control.zoomIn': 'Vergrößern',
  'control.zoomOut': 'Verkleinern',
  'control.locate': 'Meinen Standort zeigen',
  'locate.unsupported': 'Dieser Browser kann Ihren Standort nicht ermitteln.',
  'locate.unavailable': 'Ihr Standort ist nicht verfügbar. Erlauben Sie den Standortzugriff, oder verschieben Sie die Karte von Hand.',

  'panel.chosen': 'Gewählter Ort',
  'panel.previewed': 'Vorgeschlagener Ort',
  'panel.finding': 'Code wird ermittelt',
  'panel.findingShown': 'Code wird ermittelt …',
  'panel.copy': 'Code kopieren',
  'panel.copied': 'Kopiert',
  'panel.open': 'Öffnen',
  'panel.openLabel': '{code} in neuem Tab öffnen',
  'panel.confirm': 'Diesen Ort verwenden',
  'announce.preview': '{code}, {address}. Drücken Sie erneut die Eingabetaste oder wählen Sie „Diesen Ort verwenden“, um zu bestätigen.',
  'announce.chosen': 'Gewählt: {code}, {address}.',
  'announce.copied': '{code} kopiert.',
  'announce.copyByHand': '{code} ist markiert; drücken Sie Strg C oder Befehl C, um ihn zu kopieren.',
  'announce.cleared': 'Auswahl aufgehoben.',

  'move.zoom': 'Zoomstufe {zoom} von {max}.',
  'move.gridReached': 'Jeder Pfeil bewegt jetzt um ein 3-Meter-Feld.',
  'move.moved': '{movement} verschoben.',
  'move.both': '{northSouth} und {eastWest}',
  'move.north': '{distance} nach Norden',
  'move.south': '{distance} nach Süden',
  'move.east': '{distance} nach Osten',
  'move.west': '{distance} nach Westen',
  'move.cells': { one: '{count} Feld', other: '{count} Felder' },
  'move.steps': { one: '{count} Schritt', other: '{count} Schritte' },
  'move.back': 'Zurück am Ausgangspunkt.',
  'move.enterChooses': 'Die Eingabetaste wählt dieses Feld.',

  'start.failed': 'Diese Karte konnte nicht starten. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'start.notEmbedded': 'Diese Karte ist dafür gedacht, mit loc-embed.js in eine Seite eingebettet zu werden.',
  'error.retryAfter': '{message} (etwa {minutes} Min.)',
  'error.session_expired': 'Diese Karte ist abgelaufen. Laden Sie die Seite neu, um einen Ort zu wählen.',
  'error.invalid_session': 'Diese Karte kann gerade nicht verwendet werden. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'error.key_inactive': 'Diese Karte kann gerade nicht verwendet werden.',
  'error.partner_required': 'Diese Karte kann gerade nicht verwendet werden.',
  'error.origin_mismatch': 'Diese Karte kann auf dieser Seite nicht verwendet werden.',
  'error.load_timeout': 'Die Karte wurde nicht rechtzeitig geladen. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'error.rate_limited': 'Gerade wurden zu viele Orte abgefragt. Versuchen Sie es etwas später noch einmal.',
  'error.session_limit_reached': 'Diese Karte hat so viele Orte abgefragt, wie sie darf. Laden Sie die Seite neu, um einen Ort zu wählen.',
  'error.network': 'Der Ortungsdienst ist nicht erreichbar. Prüfen Sie die Verbindung und versuchen Sie es noch einmal.',
  'error.unsupported_location': 'Hier gibt es keine Codes. Wählen Sie einen Punkt an Land oder nahe der Küste.',
  'error.outside_session_area': 'Dieser Ort liegt außerhalb des Gebiets, das diese Website annimmt. Wählen Sie einen Punkt darin.',
  'error.invalid_code': 'Das ist kein Ortscode.',
  'error.code_not_found': 'Kein Ort hat diesen Code.',
  'error.service_unavailable': 'Der Ortungsdienst ist ausgelastet. Versuchen Sie es gleich noch einmal.',
  'error.internal_error': 'Etwas ist schiefgegangen. Versuchen Sie es noch einmal.',
} satisfies Catalogue;
