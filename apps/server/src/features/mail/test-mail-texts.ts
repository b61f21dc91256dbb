import type { Locale } from '@vitrine/protocol/vocabulary';

/**
 * The studio's test mail in the store's language: it proves the mail server takes the store's
 * mail, so it says so in words the owner reads (the type makes every language say it).
 */
export const TEST_MAIL_TEXTS: Record<
  Locale,
  { subject: (store: string) => string; text: (store: string) => string }
> = {
  en: {
    subject: (store) => `Test mail from ${store}`,
    text: (store) =>
      `This is a test mail from the studio of ${store}. Mail from your store reaches its recipients.`,
  },
  da: {
    subject: (store) => `Test-e-mail fra ${store}`,
    text: (store) =>
      `Dette er en test-e-mail fra studiet for ${store}. E-mails fra din butik når frem til modtagerne.`,
  },
  sv: {
    subject: (store) => `Testmejl från ${store}`,
    text: (store) =>
      `Det här är ett testmejl från studion för ${store}. E-post från din butik når fram till mottagarna.`,
  },
  no: {
    subject: (store) => `Test-e-post fra ${store}`,
    text: (store) =>
      `Dette er en test-e-post fra studioet for ${store}. E-post fra butikken din kommer frem til mottakerne.`,
  },
  fi: {
    subject: (store) => `Testiviesti: ${store}`,
    text: (store) =>
      `Tämä on testiviesti kaupan ${store} studiosta. Kauppasi sähköpostit tavoittavat vastaanottajansa.`,
  },
  nl: {
    subject: (store) => `Testmail van ${store}`,
    text: (store) =>
      `Dit is een testmail uit de studio van ${store}. E-mail van je winkel bereikt de ontvangers.`,
  },
  de: {
    subject: (store) => `Test-E-Mail von ${store}`,
    text: (store) =>
      `Dies ist eine Test-E-Mail aus dem Studio von ${store}. E-Mails deines Shops erreichen ihre Empfänger.`,
  },
  fr: {
    subject: (store) => `E-mail de test de ${store}`,
    text: (store) =>
      `Ceci est un e-mail de test envoyé depuis le studio de ${store}. Les e-mails de votre boutique parviennent à leurs destinataires.`,
  },
  es: {
    subject: (store) => `Correo de prueba de ${store}`,
    text: (store) =>
      `Este es un correo de prueba del estudio de ${store}. El correo de tu tienda llega a sus destinatarios.`,
  },
  pl: {
    subject: (store) => `E-mail testowy od ${store}`,
    text: (store) =>
      `To jest e-mail testowy ze studia sklepu ${store}. E-maile z Twojego sklepu docierają do odbiorców.`,
  },
  ko: {
    subject: (store) => `${store}의 테스트 메일`,
    text: (store) =>
      `${store} 스튜디오에서 보낸 테스트 메일입니다. 스토어의 메일이 받는 사람에게 전달됩니다.`,
  },
};
