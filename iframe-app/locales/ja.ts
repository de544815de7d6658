/**
 * Japanese. Source: translated from English (en.ts) by the loc developers with machine assistance;
 * not yet reviewed by a native speaker. Reports of wording that reads wrong are welcome.
 */
import type { Catalogue } from './en.ts';

export default {
  'frame.title': '場所を選択',
  'map.label': '場所を選択',
  'map.roleDescription': '地図',
  'map.help':
    '矢印キーで十字線の下の地図を動かします(拡大時は3メートルのマス1つずつ)。Enterキーで十字線の位置を選択、プラスとマイナスでズーム、Escapeキーで選択を解除します。',
  'testMode.badge': 'テストモード',

  'control.zoomIn': '拡大',
  'control.zoomOut': '縮小',
  'control.locate': '現在地を表示',
  'locate.unsupported': 'このブラウザーでは現在地を取得できません。',
  'locate.unavailable': '現在地を取得できません。位置情報へのアクセスを許可するか、地図を手で動かしてください。',

  'panel.chosen': '選択した場所',
  'panel.previewed': '仮選択の場所',
  'panel.finding': 'コードを取得中',
  'panel.findingShown': 'コードを取得中…',
  'panel.copy': 'コードをコピー',
  'panel.copied': 'コピーしました',
  'panel.open': '開く',
  'panel.openLabel': '{code}を新しいタブで開く',
  'panel.confirm': 'この場所を使う',
  'announce.preview': '{code}、{address}。確定するには、もう一度Enterキーを押すか「この場所を使う」を選んでください。',
  'announce.chosen': '選択しました:{code}、{address}。',
  'announce.copied': '{code}をコピーしました。',
  'announce.copyByHand': '{code}を選択しました。Control+CまたはCommand+Cでコピーしてください。',
  'announce.cleared': '選択を解除しました。',

  'move.zoom': 'ズーム {zoom}/{max}。',
  'move.gridReached': '矢印キーで3メートルのマス1つずつ動くようになりました。',
  'move.moved': '{movement}移動しました。',
  'move.both': '{northSouth}、{eastWest}',
  'move.north': '北へ{distance}',
  'move.south': '南へ{distance}',
  'move.east': '東へ{distance}',
  'move.west': '西へ{distance}',
  'move.cells': { other: '{count}マス' },
  'move.steps': { other: '{count}ステップ' },
  'move.back': '元の位置に戻りました。',
  'move.enterChooses': 'Enterキーでこのマスを選択します。',

  'start.failed': 'この地図を開始できませんでした。ページを再読み込みして、もう一度お試しください。',
  'start.notEmbedded': 'この地図は loc-embed.js でページに埋め込んで使います。',
  'error.retryAfter': '{message}(約{minutes}分)',
  'error.session_expired': 'この地図の有効期限が切れました。場所を選ぶにはページを再読み込みしてください。',
  'error.invalid_session': '現在この地図は使用できません。ページを再読み込みして、もう一度お試しください。',
  'error.key_inactive': '現在この地図は使用できません。',
  'error.partner_required': '現在この地図は使用できません。',
  'error.origin_mismatch': 'この地図はこのページでは使用できません。',
  'error.load_timeout': '地図を時間内に読み込めませんでした。ページを再読み込みして、もう一度お試しください。',
  'error.rate_limited': '短時間に多くの場所が検索されました。しばらくしてからもう一度お試しください。',
  'error.session_limit_reached': 'この地図で検索できる場所の上限に達しました。場所を選ぶにはページを再読み込みしてください。',
  'error.network': '位置情報サービスに接続できません。接続を確認して、もう一度お試しください。',
  'error.unsupported_location': 'ここにはコードがありません。陸上か海岸近くの地点を選んでください。',
  'error.outside_session_area': 'この場所は、このサイトが受け付ける範囲の外です。範囲内の地点を選んでください。',
  'error.invalid_code': 'これは場所のコードではありません。',
  'error.code_not_found': 'このコードの場所はありません。',
  'error.service_unavailable': '位置情報サービスが混み合っています。少し待ってからもう一度お試しください。',
  'error.internal_error': '問題が発生しました。もう一度お試しください。',
} satisfies Catalogue;
