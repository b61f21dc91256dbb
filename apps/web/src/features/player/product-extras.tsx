import type { HostProductExtras } from '@vitrine/domain';
import type { Product } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { useTranslation } from 'react-i18next';
import { INTERACTION_NAMESPACE } from '../../lib/i18n.ts';
import { useLocale } from '../../lib/use-locale.ts';
import type { OptionSelection } from './variant-picker.tsx';

export interface ProductExtrasProps {
  product: Product;
  /** What the host page's data for this product and its user adds (see `hostProductExtras`). */
  extras: HostProductExtras;
  currency: Currency;
  selection: OptionSelection;
  onToggle(optionId: string, optionValueId: string): void;
}

/**
 * What the host's product data adds to the product's details (spec §3 "Host product data"): the
 * suggested retail price, the B2B price and the retail markup for a reseller, and for option values
 * their swatch, lowest price and style page. Loaded on demand: only host pages send such data.
 */
export default function ProductExtras({
  product,
  extras,
  currency,
  selection,
  onToggle,
}: ProductExtrasProps) {
  // The caller computes the extras (their rule runs with the rest of the product's in the first
  // bundle; importing it here would split shared modules out of that bundle and grow it).
  // Suspends (inside the player's LazyPart) until the texts of the player's on-demand parts are in.
  const { t } = useTranslation([INTERACTION_NAMESPACE, 'translation'], { useSuspense: true });
  const format = useLocale();
  const money = (minorUnits: number) => format.money(minorUnits, currency);
  const prices = [
    extras.suggestedRetailPrice !== null && {
      key: 'suggestedRetailPrice',
      label: t('interaction.hostProduct.suggestedRetailPrice'),
      value: money(extras.suggestedRetailPrice),
    },
    extras.b2bRetailPrice !== null && {
      key: 'b2bRetailPrice',
      label: t('interaction.hostProduct.b2bRetailPrice'),
      value: money(extras.b2bRetailPrice),
    },
    extras.retailMarkupPercent !== null && {
      key: 'retailMarkup',
      label: t('interaction.hostProduct.retailMarkup'),
      value: t('interaction.hostProduct.percent', {
        percent: extras.retailMarkupPercent.toLocaleString(document.documentElement.lang || undefined),
      }),
    },
  ].filter((row) => row !== false);
  // Option values by the catalogue's names; values the catalogue does not know are not offered.
  const styles = extras.optionValues.flatMap((value) => {
    const option = product.options.find((candidate) => candidate.id === value.optionId);
    const name = option?.optionValues.find((candidate) => candidate.id === value.optionValueId)?.name;
    return option && name ? [{ ...value, optionName: option.name, name }] : [];
  });

  return (
    <div className="product-extras" data-testid="product-extras">
      {prices.length > 0 && (
        <dl className="product-extras__prices">
          {prices.map((row) => (
            <div key={row.key} data-extra={row.key}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {styles.length > 0 && (
        <section className="product-extras__styles" aria-labelledby="product-extras-styles">
          <h3 id="product-extras-styles">{t('interaction.hostProduct.styles')}</h3>
          <ul>
            {styles.map((style) => (
              <li key={`${style.optionId}/${style.optionValueId}`} data-option-value={style.optionValueId}>
                <button
                  type="button"
                  className="product-extras__swatch"
                  aria-pressed={selection[style.optionId] === style.optionValueId}
                  aria-label={`${style.optionName}: ${style.name}`}
                  onClick={() => onToggle(style.optionId, style.optionValueId)}
                >
                  {style.swatch ? (
                    <img src={style.swatch} alt="" />
                  ) : (
                    <span className="product-extras__no-swatch" aria-hidden="true" />
                  )}
                </button>
                <span className="product-extras__style-text">
                  <span className="product-extras__style-name">{style.name}</span>
                  {style.minimumPrice !== null && (
                    <span className="product-extras__from">
                      {t('interaction.hostProduct.from', { price: money(style.minimumPrice) })}
                    </span>
                  )}
                  {style.styleUrl && (
                    <a href={style.styleUrl} target="_blank" rel="noopener noreferrer">
                      {t('interaction.hostProduct.seeStyle', { name: style.name })}
                    </a>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
