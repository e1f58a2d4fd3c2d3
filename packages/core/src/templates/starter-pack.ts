import type { TemplateComponent } from './schema';

/**
 * The starter pack: 13 everyday templates (8 UTILITY, 5 MARKETING) in English and Italian.
 * Each passes `validateTemplate` (a test proves it). Names are shared across languages, as
 * the provider expects: one name, one row per locale.
 */
export interface StarterTemplate {
  name: string;
  language: string;
  category: 'UTILITY' | 'MARKETING';
  parameterFormat: 'POSITIONAL';
  components: TemplateComponent[];
}

const body = (text: string, ...examples: string[]): TemplateComponent =>
  examples.length ? { type: 'BODY', text, example: { body_text: [examples] } } : { type: 'BODY', text };
const header = (text: string): TemplateComponent => ({ type: 'HEADER', format: 'TEXT', text });
const footer = (text: string): TemplateComponent => ({ type: 'FOOTER', text });
const quickReplies = (...labels: string[]): TemplateComponent => ({
  type: 'BUTTONS',
  buttons: labels.map((text) => ({ type: 'QUICK_REPLY' as const, text })),
});
const urlButton = (text: string, url: string, example: string): TemplateComponent => ({
  type: 'BUTTONS',
  buttons: [{ type: 'URL', text, url, example: [example] }],
});

const u = (name: string, language: string, components: TemplateComponent[]): StarterTemplate => ({
  name,
  language,
  category: 'UTILITY',
  parameterFormat: 'POSITIONAL',
  components,
});
const m = (name: string, language: string, components: TemplateComponent[]): StarterTemplate => ({
  name,
  language,
  category: 'MARKETING',
  parameterFormat: 'POSITIONAL',
  components,
});

export const STARTER_PACK: readonly StarterTemplate[] = [
  u('order_confirmation', 'en_US', [
    header('Order confirmed'),
    body('Hi {{1}}, thank you for your order {{2}}. We are preparing it now and will let you know as soon as it ships.', 'Giulia', '#10482'),
    footer('Reply to this message if you need help'),
  ]),
  u('order_confirmation', 'it', [
    header('Ordine confermato'),
    body('Ciao {{1}}, grazie per il tuo ordine {{2}}. Lo stiamo preparando e ti avviseremo non appena verrà spedito.', 'Giulia', '#10482'),
    footer('Rispondi a questo messaggio se hai bisogno di aiuto'),
  ]),
  u('shipping_update', 'en_US', [
    body('Good news, {{1}}: your order {{2}} has shipped with {{3}} and should arrive within a few days.', 'Marco', '#10482', 'BRT'),
    urlButton('Track shipment', 'https://example.com/track/{{1}}', '10482'),
  ]),
  u('shipping_update', 'it', [
    body('Buone notizie, {{1}}: il tuo ordine {{2}} è stato spedito con {{3}} e dovrebbe arrivare entro pochi giorni.', 'Marco', '#10482', 'BRT'),
    urlButton('Traccia la spedizione', 'https://example.com/track/{{1}}', '10482'),
  ]),
  u('appointment_reminder', 'en_US', [
    body('Hello {{1}}, this is a reminder of your appointment on {{2}} at {{3}}. Please let us know if you can make it.', 'Anna', 'Monday 12 May', '10:30'),
    quickReplies('Confirm', 'Reschedule'),
  ]),
  u('appointment_reminder', 'it', [
    body('Ciao {{1}}, ti ricordiamo il tuo appuntamento di {{2}} alle {{3}}. Facci sapere se riesci a esserci.', 'Anna', 'lunedì 12 maggio', '10:30'),
    quickReplies('Confermo', 'Sposta'),
  ]),
  u('payment_reminder', 'en_US', [
    body(
      'Hi {{1}}, a friendly reminder that invoice {{2}} for {{3}} is due on {{4}}. You can ignore this message if you have already paid.',
      'Luca',
      'INV-2041',
      '€120.00',
      '30 June',
    ),
    footer('Thank you for your business'),
  ]),
  u('payment_reminder', 'it', [
    body(
      'Ciao {{1}}, ti ricordiamo che la fattura {{2}} di {{3}} scade il {{4}}. Se hai già pagato, puoi ignorare questo messaggio.',
      'Luca',
      'INV-2041',
      '120,00 €',
      '30 giugno',
    ),
    footer('Grazie per la fiducia'),
  ]),
  m('seasonal_sale', 'en_US', [
    header('Our sale is on'),
    body('Hi {{1}}, our seasonal sale has started: enjoy {{2}} off selected items until {{3}} while stocks last.', 'Sara', '20%', 'Sunday'),
    footer('Reply STOP to unsubscribe'),
    quickReplies('Show me the offers', 'Stop promotions'),
  ]),
  m('seasonal_sale', 'it', [
    header('Sono iniziati i saldi'),
    body(
      'Ciao {{1}}, i nostri saldi di stagione sono iniziati: approfitta del {{2}} di sconto sugli articoli selezionati fino a {{3}}, fino a esaurimento scorte.',
      'Sara',
      '20%',
      'domenica',
    ),
    footer('Rispondi STOP per non ricevere promozioni'),
    quickReplies('Mostrami le offerte', 'Stop promozioni'),
  ]),
  m('back_in_stock', 'en_US', [
    body('Good news, {{1}}! The item you were waiting for, {{2}}, is back in stock. Order soon, quantities are limited.', 'Paolo', 'Linen shirt'),
    urlButton('Shop now', 'https://example.com/products/{{1}}', 'linen-shirt'),
  ]),
  m('back_in_stock', 'it', [
    body(
      "Buone notizie, {{1}}! L'articolo che aspettavi, {{2}}, è di nuovo disponibile. Ordina presto, le quantità sono limitate.",
      'Paolo',
      'Camicia di lino',
    ),
    urlButton('Acquista ora', 'https://example.com/products/{{1}}', 'camicia-lino'),
  ]),
  m('welcome_offer', 'en_US', [
    body('Welcome, {{1}}! Thanks for joining us. Use the code {{2}} at checkout to get a discount on your first order.', 'Elena', 'WELCOME10'),
    footer('Reply STOP to unsubscribe'),
  ]),
];
