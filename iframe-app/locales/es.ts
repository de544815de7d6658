/**
 * Spanish. Source: translated from English (en.ts) by the loc developers with machine assistance; not
 * yet reviewed by a native speaker. Reports of wording that reads wrong are welcome.
 */
import type { Catalogue } from './en.ts';

export default {
  'frame.title': 'Elegir una ubicación',
  'map.label': 'Elegir una ubicación',
  'map.roleDescription': 'mapa',
  'map.help':
    'Las flechas mueven el mapa bajo la cruz (una celda de 3 metros cada vez con el zoom cercano), Intro elige el punto bajo la cruz, más y menos cambian el zoom, Escape borra la elección.',
  'testMode.badge': 'Modo de prueba',

  'control.zoomIn': 'Acercar',
  'control.zoomOut': 'Alejar',
  'control.locate': 'Mostrar mi ubicación',
  'locate.unsupported': 'Este navegador no puede indicar su ubicación.',
  'locate.unavailable': 'Su ubicación no está disponible. Permita el acceso a la ubicación o mueva el mapa a mano.',

  'panel.chosen': 'Ubicación elegida',
  'panel.previewed': 'Ubicación propuesta',
  'panel.finding': 'Buscando el código',
  'panel.findingShown': 'Buscando el código…',
  'panel.copy': 'Copiar código',
  'panel.copied': 'Copiado',
  'panel.open': 'Abrir',
  'panel.openLabel': 'Abrir {code} en una pestaña nueva',
  'panel.confirm': 'Usar esta ubicación',
  'announce.preview': '{code}, {address}. Pulse Intro de nuevo, o elija «Usar esta ubicación», para confirmar.',
  'announce.chosen': 'Elegido: {code}, {address}.',
  'announce.copied': '{code} copiado.',
  'announce.copyByHand': '{code} está seleccionado; pulse Control C o Comando C para copiarlo.',
  'announce.cleared': 'Elección borrada.',

  'move.zoom': 'Zoom {zoom} de {max}.',
  'move.gridReached': 'Cada flecha mueve ahora una celda de 3 metros.',
  'move.moved': 'Movido {movement}.',
  'move.both': '{northSouth} y {eastWest}',
  'move.north': '{distance} al norte',
  'move.south': '{distance} al sur',
  'move.east': '{distance} al este',
  'move.west': '{distance} al oeste',
  'move.cells': { one: '{count} celda', many: '{count} de celdas', other: '{count} celdas' },
  'move.steps': { one: '{count} paso', many: '{count} de pasos', other: '{count} pasos' },
  'move.back': 'De vuelta al punto de partida.',
  'move.enterChooses': 'Intro elige esta celda.',

  'start.failed': 'Este mapa no pudo iniciarse. Vuelva a cargar la página e inténtelo de nuevo.',
  'start.notEmbedded': 'Este mapa está pensado para insertarse en una página con loc-embed.js.',
  'error.retryAfter': '{message} (unos {minutes} min)',
  'error.session_expired': 'Este mapa ha caducado. Vuelva a cargar la página para elegir una ubicación.',
  'error.invalid_session': 'Este mapa no se puede usar ahora. Vuelva a cargar la página e inténtelo de nuevo.',
  'error.key_inactive': 'Este mapa no se puede usar ahora.',
  'error.partner_required': 'Este mapa no se puede usar ahora.',
  'error.origin_mismatch': 'Este mapa no se puede usar en esta página.',
  'error.load_timeout': 'El mapa no cargó a tiempo. Vuelva a cargar la página e inténtelo de nuevo.',
  'error.rate_limited': 'Se han buscado demasiadas ubicaciones hace un momento. Inténtelo un poco más tarde.',
  'error.session_limit_reached': 'Este mapa ha buscado todas las ubicaciones que puede. Vuelva a cargar la página para elegir una ubicación.',
  'error.network': 'No se puede contactar con el servicio de ubicación. Compruebe la conexión e inténtelo de nuevo.',
  'error.unsupported_location': 'Aquí no hay códigos. Elija un punto en tierra o cerca de la costa.',
  'error.outside_session_area': 'Esta ubicación está fuera de la zona que acepta este sitio. Elija un punto dentro de ella.',
  'error.invalid_code': 'Esto no es un código de ubicación.',
  'error.code_not_found': 'Ninguna ubicación tiene este código.',
  'error.service_unavailable': 'El servicio de ubicación está ocupado. Inténtelo de nuevo en un momento.',
  'error.internal_error': 'Algo ha fallado. Inténtelo de nuevo.',
} satisfies Catalogue;
