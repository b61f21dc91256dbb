import type { Locale } from '@vitrine/protocol/vocabulary';

/**
 * The words of the page descriptions search engines and chat apps show, per language. `{name}`
 * placeholders are filled by page-head-model.ts; the page head escapes the result like any text.
 */
export interface PageHeadTexts {
  /** A shop page whose store wrote no description of its own. */
  shopDescription: string;
  plannedDescription: string;
  liveDescription: string;
  replayDescription: string;
  /** Followed by the names of the first products shown. */
  featuring: string;
  /** A clip's page: the product it sells, the show it was cut from. */
  clipDescription: string;
}

export const PAGE_HEAD_TEXTS: Record<Locale, PageHeadTexts> = {
  en: {
    shopDescription: 'Live shopping with {store}: watch the shows live or as replays and shop what you see.',
    plannedDescription: 'Live shopping show with {store} on {date}.',
    liveDescription: 'Live now with {store}: watch and shop what you see.',
    replayDescription: 'Replay of the live shopping show with {store} from {date}.',
    featuring: 'Featuring {products}.',
    clipDescription: '{product}, seen live in “{show}” with {store}.',
  },
  da: {
    shopDescription:
      'Live shopping med {store}: se showsene live eller som genudsendelse, og køb det, du ser.',
    plannedDescription: 'Live shopping-show med {store} den {date}.',
    liveDescription: 'Live nu med {store}: se med, og køb det, du ser.',
    replayDescription: 'Genudsendelse af live shopping-showet med {store} fra {date}.',
    featuring: 'Med {products}.',
    clipDescription: '{product}, set live i “{show}” med {store}.',
  },
  sv: {
    shopDescription:
      'Live shopping med {store}: se sändningarna live eller i efterhand och handla det du ser.',
    plannedDescription: 'Live shopping-sändning med {store} den {date}.',
    liveDescription: 'Live nu med {store}: titta och handla det du ser.',
    replayDescription: 'Repris av live shopping-sändningen med {store} från {date}.',
    featuring: 'Med {products}.',
    clipDescription: '{product}, sedd live i ”{show}” med {store}.',
  },
  no: {
    shopDescription: 'Live shopping med {store}: se sendingene direkte eller i opptak og kjøp det du ser.',
    plannedDescription: 'Live shopping-sending med {store} {date}.',
    liveDescription: 'Direkte nå med {store}: se på og kjøp det du ser.',
    replayDescription: 'Opptak av live shopping-sendingen med {store} fra {date}.',
    featuring: 'Med {products}.',
    clipDescription: '{product}, sett live i «{show}» med {store}.',
  },
  fi: {
    shopDescription: 'Live-ostoksia: {store}. Katso lähetykset suorana tai tallenteena ja osta näkemäsi.',
    plannedDescription: 'Live-ostoslähetys: {store}, {date}.',
    liveDescription: 'Nyt suorana: {store}. Katso ja osta näkemäsi.',
    replayDescription: 'Tallenne live-ostoslähetyksestä: {store}, {date}.',
    featuring: 'Mukana: {products}.',
    clipDescription: '{product} livenä lähetyksessä ”{show}” – {store}.',
  },
  nl: {
    shopDescription: 'Live shoppen met {store}: bekijk de shows live of later terug en koop wat je ziet.',
    plannedDescription: 'Live shoppingshow met {store} op {date}.',
    liveDescription: 'Nu live met {store}: kijk mee en koop wat je ziet.',
    replayDescription: 'Terugkijken: de live shoppingshow met {store} van {date}.',
    featuring: 'Met {products}.',
    clipDescription: '{product}, live gezien in “{show}” bij {store}.',
  },
  pl: {
    shopDescription:
      'Zakupy na żywo z {store}: oglądaj transmisje na żywo lub z nagrania i kupuj to, co widzisz.',
    plannedDescription: 'Transmisja zakupowa na żywo z {store}: {date}.',
    liveDescription: 'Teraz na żywo z {store}: oglądaj i kupuj to, co widzisz.',
    replayDescription: 'Nagranie transmisji zakupowej z {store} z {date}.',
    featuring: 'W programie: {products}.',
    clipDescription: '{product} – pokazane na żywo w „{show}” z {store}.',
  },
  de: {
    shopDescription:
      'Live-Shopping mit {store}: Shows live oder als Aufzeichnung ansehen und kaufen, was du siehst.',
    plannedDescription: 'Live-Shopping-Show mit {store} am {date}.',
    liveDescription: 'Jetzt live mit {store}: zuschauen und kaufen, was du siehst.',
    replayDescription: 'Aufzeichnung der Live-Shopping-Show mit {store} vom {date}.',
    featuring: 'Mit {products}.',
    clipDescription: '{product}, live gezeigt in „{show}“ bei {store}.',
  },
  es: {
    shopDescription:
      'Compras en directo con {store}: mira los programas en directo o en diferido y compra lo que ves.',
    plannedDescription: 'Programa de compras en directo con {store} el {date}.',
    liveDescription: 'En directo ahora con {store}: mira y compra lo que ves.',
    replayDescription: 'Repetición del programa de compras en directo con {store} del {date}.',
    featuring: 'Con {products}.',
    clipDescription: '{product}, visto en directo en «{show}» con {store}.',
  },
  fr: {
    shopDescription:
      'Shopping en direct avec {store} : regardez les émissions en direct ou en replay et achetez ce que vous voyez.',
    plannedDescription: 'Émission de shopping en direct avec {store} le {date}.',
    liveDescription: 'En direct avec {store} : regardez et achetez ce que vous voyez.',
    replayDescription: 'Replay de l’émission de shopping en direct avec {store} du {date}.',
    featuring: 'Avec {products}.',
    clipDescription: '{product}, vu en direct dans « {show} » avec {store}.',
  },
  ko: {
    shopDescription: '{store} 라이브 쇼핑: 방송을 실시간 또는 다시보기로 시청하고 보이는 상품을 구매하세요.',
    plannedDescription: '{date} {store} 라이브 쇼핑 방송.',
    liveDescription: '{store} 지금 라이브 중: 시청하며 보이는 상품을 구매하세요.',
    replayDescription: '{date} {store} 라이브 쇼핑 방송 다시보기.',
    featuring: '소개 상품: {products}.',
    clipDescription: '{store}의 라이브 “{show}”에서 소개된 {product}.',
  },
};

/** A text with its `{name}` placeholders filled in (unknown ones are left as they are). */
export function fillText(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (placeholder, key: string) => values[key] ?? placeholder);
}
