import type { Locale } from '@vitrine/protocol/vocabulary';
import type { PaymentPageData } from '../payment-service.ts';

/**
 * The test provider's page in the order's language: a shopper who shopped in Swedish pays in
 * Swedish (issue 27), as real providers' hosted pages take the shop's locale.
 */
export interface PaymentPageTexts {
  /** The tab's title; `{store}` is the store's name. */
  title: string;
  provider: string;
  /** `{number}` is the order number. */
  order: string;
  approve: string;
  decline: string;
  abandon: string;
  back: string;
  status: Record<PaymentPageData['status'], string>;
}

export const PAYMENT_PAGE_TEXTS: Record<Locale, PaymentPageTexts> = {
  en: {
    title: 'Test payment – {store}',
    provider: 'Vitrine test payment provider – no real money moves.',
    order: 'Order {number}',
    approve: 'Approve payment',
    decline: 'Decline payment',
    abandon: 'Abandon payment',
    back: 'Back to the shop',
    status: {
      awaiting_confirmation: 'Awaiting confirmation',
      received: 'Payment received',
      declined: 'Payment declined',
      abandoned: 'Payment interrupted',
    },
  },
  da: {
    title: 'Testbetaling – {store}',
    provider: 'Vitrines testbetalingsudbyder – ingen rigtige penge flyttes.',
    order: 'Ordre {number}',
    approve: 'Godkend betaling',
    decline: 'Afvis betaling',
    abandon: 'Afbryd betaling',
    back: 'Tilbage til butikken',
    status: {
      awaiting_confirmation: 'Afventer bekræftelse',
      received: 'Betaling modtaget',
      declined: 'Betaling afvist',
      abandoned: 'Betaling afbrudt',
    },
  },
  sv: {
    title: 'Testbetalning – {store}',
    provider: 'Vitrines testbetalningsleverantör – inga riktiga pengar flyttas.',
    order: 'Order {number}',
    approve: 'Godkänn betalning',
    decline: 'Neka betalning',
    abandon: 'Avbryt betalning',
    back: 'Tillbaka till butiken',
    status: {
      awaiting_confirmation: 'Väntar på bekräftelse',
      received: 'Betalning mottagen',
      declined: 'Betalning nekad',
      abandoned: 'Betalning avbruten',
    },
  },
  no: {
    title: 'Testbetaling – {store}',
    provider: 'Vitrines testbetalingsleverandør – ingen ekte penger flyttes.',
    order: 'Ordre {number}',
    approve: 'Godkjenn betaling',
    decline: 'Avvis betaling',
    abandon: 'Avbryt betaling',
    back: 'Tilbake til butikken',
    status: {
      awaiting_confirmation: 'Venter på bekreftelse',
      received: 'Betaling mottatt',
      declined: 'Betaling avvist',
      abandoned: 'Betaling avbrutt',
    },
  },
  fi: {
    title: 'Testimaksu – {store}',
    provider: 'Vitrinen testimaksupalvelu – oikeaa rahaa ei siirry.',
    order: 'Tilaus {number}',
    approve: 'Hyväksy maksu',
    decline: 'Hylkää maksu',
    abandon: 'Keskeytä maksu',
    back: 'Takaisin kauppaan',
    status: {
      awaiting_confirmation: 'Odottaa vahvistusta',
      received: 'Maksu vastaanotettu',
      declined: 'Maksu hylätty',
      abandoned: 'Maksu keskeytetty',
    },
  },
  nl: {
    title: 'Testbetaling – {store}',
    provider: 'Vitrine-testbetaalprovider – er wordt geen echt geld overgemaakt.',
    order: 'Bestelling {number}',
    approve: 'Betaling goedkeuren',
    decline: 'Betaling weigeren',
    abandon: 'Betaling afbreken',
    back: 'Terug naar de winkel',
    status: {
      awaiting_confirmation: 'Wacht op bevestiging',
      received: 'Betaling ontvangen',
      declined: 'Betaling geweigerd',
      abandoned: 'Betaling onderbroken',
    },
  },
  pl: {
    title: 'Płatność testowa – {store}',
    provider: 'Testowy operator płatności Vitrine – żadne prawdziwe pieniądze nie są przesyłane.',
    order: 'Zamówienie {number}',
    approve: 'Zatwierdź płatność',
    decline: 'Odrzuć płatność',
    abandon: 'Przerwij płatność',
    back: 'Wróć do sklepu',
    status: {
      awaiting_confirmation: 'Oczekuje na potwierdzenie',
      received: 'Płatność otrzymana',
      declined: 'Płatność odrzucona',
      abandoned: 'Płatność przerwana',
    },
  },
  de: {
    title: 'Testzahlung – {store}',
    provider: 'Vitrine-Testzahlungsanbieter – es wird kein echtes Geld bewegt.',
    order: 'Bestellung {number}',
    approve: 'Zahlung bestätigen',
    decline: 'Zahlung ablehnen',
    abandon: 'Zahlung abbrechen',
    back: 'Zurück zum Shop',
    status: {
      awaiting_confirmation: 'Wartet auf Bestätigung',
      received: 'Zahlung erhalten',
      declined: 'Zahlung abgelehnt',
      abandoned: 'Zahlung abgebrochen',
    },
  },
  es: {
    title: 'Pago de prueba – {store}',
    provider: 'Proveedor de pagos de prueba de Vitrine: no se mueve dinero real.',
    order: 'Pedido {number}',
    approve: 'Aprobar el pago',
    decline: 'Rechazar el pago',
    abandon: 'Abandonar el pago',
    back: 'Volver a la tienda',
    status: {
      awaiting_confirmation: 'Pendiente de confirmación',
      received: 'Pago recibido',
      declined: 'Pago rechazado',
      abandoned: 'Pago interrumpido',
    },
  },
  fr: {
    title: 'Paiement de test – {store}',
    provider: 'Prestataire de paiement de test de Vitrine – aucun argent réel n’est débité.',
    order: 'Commande {number}',
    approve: 'Approuver le paiement',
    decline: 'Refuser le paiement',
    abandon: 'Abandonner le paiement',
    back: 'Retour à la boutique',
    status: {
      awaiting_confirmation: 'En attente de confirmation',
      received: 'Paiement reçu',
      declined: 'Paiement refusé',
      abandoned: 'Paiement interrompu',
    },
  },
  ko: {
    title: '테스트 결제 – {store}',
    provider: 'Vitrine 테스트 결제 서비스 – 실제 돈은 이동하지 않습니다.',
    order: '주문 {number}',
    approve: '결제 승인',
    decline: '결제 거절',
    abandon: '결제 중단',
    back: '상점으로 돌아가기',
    status: {
      awaiting_confirmation: '확인 대기 중',
      received: '결제 완료',
      declined: '결제 거절됨',
      abandoned: '결제 중단됨',
    },
  },
};
