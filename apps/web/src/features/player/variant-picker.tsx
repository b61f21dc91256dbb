import { isOptionValueAvailable } from '@vitrine/domain';
import type { Product } from '@vitrine/protocol';
import { useTranslation } from 'react-i18next';

export type OptionSelection = Record<string, string>;

/** Option values as toggle buttons; picking a chosen value again un-picks it (spec §4). */
export function VariantPicker({
  product,
  selection,
  onToggle,
}: {
  product: Product;
  selection: OptionSelection;
  onToggle(optionId: string, optionValueId: string): void;
}) {
  const { t } = useTranslation();
  if (product.options.length === 0) return null;
  return (
    <div className="variant-picker">
      {product.options.map((option) => (
        <fieldset key={option.id} className="variant-picker__option">
          <legend>{option.name}</legend>
          <div className="variant-picker__values">
            {option.optionValues.map((value) => {
              const chosen = selection[option.id] === value.id;
              const available = isOptionValueAvailable(product, selection, option.id, value.id);
              return (
                <button
                  key={value.id}
                  type="button"
                  className="variant-picker__value"
                  aria-pressed={chosen}
                  data-unavailable={!available || undefined}
                  title={available ? undefined : t('player.soldOut')}
                  onClick={() => onToggle(option.id, value.id)}
                >
                  {value.name}
                </button>
              );
            })}
          </div>
        </fieldset>
      ))}
    </div>
  );
}
