/**
 * French. Source: translated from English (en.ts) by the loc developers with machine assistance; not
 * yet reviewed by a native speaker. Reports of wording that reads wrong are welcome.
 */
import type { Catalogue } from './en.ts';

export default {
  'frame.title': 'Choisir un emplacement',
  'map.label': 'Choisir un emplacement',
  'map.roleDescription': 'carte',
  'map.help':
    'Les flèches déplacent la carte sous le réticule (une case de 3 mètres à la fois en vue rapprochée), Entrée choisit le point sous le réticule, plus et moins zooment, Échap efface le choix.',
  'testMode.badge': 'Mode test',

  'control.zoomIn': 'Zoom avant',
  'control.zoomOut': 'Zoom arrière',
  'control.locate': 'Afficher ma position',
  'locate.unsupported': 'Ce navigateur ne peut pas indiquer votre position.',
  'locate.unavailable': 'Votre position n’est pas disponible. Autorisez l’accès à la position, ou déplacez la carte à la main.',

  'panel.chosen': 'Emplacement choisi',
  'panel.previewed': 'Emplacement proposé',
  'panel.finding': 'Recherche du code',
  'panel.findingShown': 'Recherche du code…',
  'panel.copy': 'Copier le code',
  'panel.copied': 'Copié',
  'panel.open': 'Ouvrir',
  'panel.openLabel': 'Ouvrir {code} dans un nouvel onglet',
  'panel.confirm': 'Utiliser cet emplacement',
  'announce.preview': '{code}, {address}. Appuyez de nouveau sur Entrée, ou choisissez « Utiliser cet emplacement », pour confirmer.',
  'announce.chosen': 'Choisi : {code}, {address}.',
  'announce.copied': '{code} copié.',
  'announce.copyByHand': '{code} est sélectionné ; appuyez sur Ctrl C ou Commande C pour le copier.',
  'announce.cleared': 'Choix effacé.',

  'move.zoom': 'Zoom {zoom} sur {max}.',
  'move.gridReached': 'Chaque flèche déplace maintenant d’une case de 3 mètres.',
  'move.moved': 'Déplacé de {movement}.',
  'move.both': '{northSouth} et {eastWest}',
  'move.north': '{distance} vers le nord',
  'move.south': '{distance} vers le sud',
  'move.east': '{distance} vers l’est',
  'move.west': '{distance} vers l’ouest',
  'move.cells': { one: '{count} case', many: '{count} de cases', other: '{count} cases' },
  'move.steps': { one: '{count} pas', many: '{count} de pas', other: '{count} pas' },
  'move.back': 'Retour au point de départ.',
  'move.enterChooses': 'Entrée choisit cette case.',

  'start.failed': 'Cette carte n’a pas pu démarrer. Rechargez la page et réessayez.',
  'start.notEmbedded': 'Cette carte doit être intégrée à une page avec loc-embed.js.',
  'error.retryAfter': '{message} (environ {minutes} min)',
  'error.session_expired': 'Cette carte a expiré. Rechargez la page pour choisir un emplacement.',
  'error.invalid_session': 'Cette carte ne peut pas être utilisée pour le moment. Rechargez la page et réessayez.',
  'error.key_inactive': 'Cette carte ne peut pas être utilisée pour le moment.',
  'error.partner_required': 'Cette carte ne peut pas être utilisée pour le moment.',
  'error.origin_mismatch': 'Cette carte ne peut pas être utilisée sur cette page.',
  'error.load_timeout': 'La carte n’a pas chargé à temps. Rechargez la page et réessayez.',
  'error.rate_limited': 'Trop d’emplacements ont été recherchés à l’instant. Réessayez un peu plus tard.',
  'error.session_limit_reached': 'Cette carte a recherché autant d’emplacements qu’elle le peut. Rechargez la page pour choisir un emplacement.',
  'error.network': 'Le service de localisation est injoignable. Vérifiez la connexion et réessayez.',
  'error.unsupported_location': 'Il n’y a pas de code ici. Choisissez un point sur terre ou près de la côte.',
  'error.outside_session_area': 'Cet emplacement est hors de la zone acceptée par ce site. Choisissez un point à l’intérieur.',
  'error.invalid_code': 'Ce n’est pas un code d’emplacement.',
  'error.code_not_found': 'Aucun emplacement n’a ce code.',
  'error.service_unavailable': 'Le service de localisation est occupé. Réessayez dans un instant.',
  'error.internal_error': 'Une erreur s’est produite. Réessayez.',
} satisfies Catalogue;
