/**
 * Arabic (Modern Standard), written right to left: the frame mirrors its layout for it. Source:
 * translated from English (en.ts) by the loc developers with machine assistance; not yet reviewed by
 * a native speaker. Reports of wording that reads wrong are welcome.
 */
import type { Catalogue } from './en.ts';

export default {
  'frame.title': 'اختر موقعًا',
  'map.label': 'اختر موقعًا',
  'map.roleDescription': 'خريطة',
  'map.help':
    'تحرّك مفاتيح الأسهم الخريطة تحت علامة التصويب (خلية واحدة طولها 3 أمتار في كل مرة عند التكبير)، ويختار مفتاح الإدخال النقطة تحت علامة التصويب، ويكبّر مفتاحا الزائد والناقص ويصغّران، ويمسح مفتاح الهروب الاختيار.',
  'testMode.badge': 'وضع الاختبار',

  'control.zoomIn': 'تكبير',
  'control.zoomOut': 'تصغير',
  'control.locate': 'إظهار موقعي',
  'locate.unsupported': 'لا يستطيع هذا المتصفح تحديد موقعك.',
  'locate.unavailable': 'موقعك غير متاح. اسمح بالوصول إلى الموقع، أو حرّك الخريطة يدويًا.',

  'panel.chosen': 'الموقع المختار',
  'panel.previewed': 'الموقع المقترح',
  'panel.finding': 'جارٍ إيجاد الرمز',
  'panel.findingShown': 'جارٍ إيجاد الرمز…',
  'panel.copy': 'نسخ الرمز',
  'panel.copied': 'تم النسخ',
  'panel.open': 'فتح',
  'panel.openLabel': 'فتح {code} في علامة تبويب جديدة',
  'panel.confirm': 'استخدام هذا الموقع',
  'announce.preview': '{code}، {address}. اضغط مفتاح الإدخال مرة أخرى، أو اختر «استخدام هذا الموقع»، للتأكيد.',
  'announce.chosen': 'تم الاختيار: {code}، {address}.',
  'announce.copied': 'تم نسخ {code}.',
  'announce.copyByHand': 'تم تحديد {code}؛ اضغط Control C أو Command C لنسخه.',
  'announce.cleared': 'تم مسح الاختيار.',

  'move.zoom': 'مستوى التكبير {zoom} من {max}.',
  'move.gridReached': 'كل سهم يحرّك الآن خلية واحدة طولها 3 أمتار.',
  'move.moved': 'تم التحريك {movement}.',
  'move.both': '{northSouth} و{eastWest}',
  'move.north': '{distance} شمالًا',
  'move.south': '{distance} جنوبًا',
  'move.east': '{distance} شرقًا',
  'move.west': '{distance} غربًا',
  // Arabic counts in six forms: one and two are said without the number, as Arabic says them.
  'move.cells': { zero: '{count} خلية', one: 'خلية واحدة', two: 'خليتين', few: '{count} خلايا', many: '{count} خلية', other: '{count} خلية' },
  'move.steps': { zero: '{count} خطوة', one: 'خطوة واحدة', two: 'خطوتين', few: '{count} خطوات', many: '{count} خطوة', other: '{count} خطوة' },
  'move.back': 'عدت إلى نقطة البداية.',
  'move.enterChooses': 'مفتاح الإدخال يختار هذه الخلية.',

  'start.failed': 'تعذّر تشغيل هذه الخريطة. أعد تحميل الصفحة وحاول مرة أخرى.',
  'start.notEmbedded': 'هذه الخريطة مخصّصة للتضمين في صفحة باستخدام loc-embed.js.',
  'error.retryAfter': '{message} (نحو {minutes} دقيقة)',
  'error.session_expired': 'انتهت صلاحية هذه الخريطة. أعد تحميل الصفحة لاختيار موقع.',
  'error.invalid_session': 'لا يمكن استخدام هذه الخريطة الآن. أعد تحميل الصفحة وحاول مرة أخرى.',
  'error.key_inactive': 'لا يمكن استخدام هذه الخريطة الآن.',
  'error.partner_required': 'لا يمكن استخدام هذه الخريطة الآن.',
  'error.origin_mismatch': 'لا يمكن استخدام هذه الخريطة في هذه الصفحة.',
  'error.load_timeout': 'لم يكتمل تحميل الخريطة في الوقت المحدد. أعد تحميل الصفحة وحاول مرة أخرى.',
  'error.rate_limited': 'تم البحث عن مواقع كثيرة جدًا للتو. حاول مرة أخرى بعد قليل.',
  'error.session_limit_reached': 'بحثت هذه الخريطة عن أقصى عدد مسموح به من المواقع. أعد تحميل الصفحة لاختيار موقع.',
  'error.network': 'تعذّر الوصول إلى خدمة المواقع. تحقق من الاتصال وحاول مرة أخرى.',
  'error.unsupported_location': 'لا توجد رموز هنا. اختر نقطة على اليابسة أو قرب الساحل.',
  'error.outside_session_area': 'هذا الموقع خارج المنطقة التي يقبلها هذا الموقع الإلكتروني. اختر نقطة داخلها.',
  'error.invalid_code': 'هذا ليس رمز موقع.',
  'error.code_not_found': 'لا يوجد موقع بهذا الرمز.',
  'error.service_unavailable': 'خدمة المواقع مشغولة. حاول مرة أخرى بعد لحظة.',
  'error.internal_error': 'حدث خطأ ما. حاول مرة أخرى.',
} satisfies Catalogue;
