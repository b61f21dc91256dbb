import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { formatMoney } from '@vitrine/domain';
import type { PriceList, Show, ShowLineupItem } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { useState } from 'react';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';

/** The first price of a product, formatted for the studio's language. */
function priceText(prices: PriceList, language: string): string {
  const [currency, amount] = Object.entries(prices)[0] ?? [];
  return currency && amount !== undefined ? formatMoney(amount, currency, language as Locale) : '';
}

/**
 * The show's products in the order the host presents them: drag (or move with the keyboard) to
 * reorder, remove, and add from the store's catalogue. Every change is saved at once.
 */
export function LineupEditor({ show, onChange }: { show: Show; onChange: (show: Show) => void }) {
  const { t, i18n } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const [items, setItems] = useState<ShowLineupItem[]>(show.lineup);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const save = async (next: ShowLineupItem[], message: string) => {
    const previous = items;
    setItems(next);
    setSaving(true);
    setFailure(null);
    try {
      const saved = await staffCall('setShowLineup', {
        params: { pageUid: store.pageUid, showUid: show.uid },
        body: { productUids: next.map((item) => item.productUid) },
      });
      setItems(saved.lineup);
      onChange(saved);
      setAnnouncement(message);
    } catch (error) {
      setItems(previous);
      setFailure(refusalText(error, t('lineup.failed')));
    } finally {
      setSaving(false);
    }
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = items.findIndex((item) => item.uid === active.id);
    const to = items.findIndex((item) => item.uid === over.id);
    if (from < 0 || to < 0) return;
    const moved = items[from];
    void save(arrayMove(items, from, to), t('lineup.moved', { name: moved?.name, position: to + 1 }));
  };

  const add = (product: {
    uid: string;
    name: string;
    sku: string;
    image: string | null;
    prices: PriceList;
  }) =>
    void save(
      [
        ...items,
        {
          uid: `new-${product.uid}`,
          productUid: product.uid,
          name: product.name,
          sku: product.sku,
          image: product.image,
          prices: product.prices,
        },
      ],
      t('lineup.added', { name: product.name }),
    );

  return (
    <div className="shows-lineup" aria-busy={saving}>
      <p className="studio-muted studio-small">{t('lineup.help')}</p>
      {items.length === 0 ? (
        <p className="studio-notice">{t('lineup.empty')}</p>
      ) : (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={items.map((item) => item.uid)} strategy={verticalListSortingStrategy}>
            <ol className="shows-lineup__list">
              {items.map((item, index) => (
                <LineupRow
                  key={item.uid}
                  item={item}
                  position={index + 1}
                  price={priceText(item.prices, i18n.language)}
                  onRemove={() =>
                    void save(
                      items.filter((candidate) => candidate.uid !== item.uid),
                      t('lineup.removed', { name: item.name }),
                    )
                  }
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {failure && (
        <p role="alert" className="studio-notice studio-notice--error">
          {failure}
        </p>
      )}
      <ProductPicker chosen={new Set(items.map((item) => item.productUid))} onPick={add} disabled={saving} />
    </div>
  );
}

function LineupRow({
  item,
  position,
  price,
  onRemove,
}: {
  item: ShowLineupItem;
  position: number;
  price: string;
  onRemove: () => void;
}) {
  const { t } = useStudioTranslation('studio-shows');
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.uid,
  });
  return (
    <li
      ref={setNodeRef}
      className={`shows-lineup__item${isDragging ? ' shows-lineup__item--dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <button
        type="button"
        className="shows-lineup__handle"
        aria-label={t('lineup.drag', { name: item.name, position })}
        {...attributes}
        {...listeners}
      >
        <span aria-hidden="true">⋮⋮</span>
      </button>
      <span className="shows-lineup__position">{position}</span>
      {item.image ? (
        <img className="shows-lineup__image" src={item.image} alt="" />
      ) : (
        <span className="shows-lineup__image" aria-hidden="true" />
      )}
      <span className="shows-lineup__name">
        {item.name}
        {item.sku && <span className="studio-muted studio-small"> · {item.sku}</span>}
      </span>
      <span className="shows-lineup__price">{price}</span>
      <button type="button" className="studio-button studio-button--quiet" onClick={onRemove}>
        {t('lineup.remove')}
        <span className="visually-hidden"> {item.name}</span>
      </button>
    </li>
  );
}

/** Searches the store's catalogue (archived products left out) and adds a product to the line-up. */
function ProductPicker({
  chosen,
  onPick,
  disabled,
}: {
  chosen: ReadonlySet<string>;
  onPick: (product: {
    uid: string;
    name: string;
    sku: string;
    image: string | null;
    prices: PriceList;
  }) => void;
  disabled: boolean;
}) {
  const { t, i18n } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const [search, setSearch] = useState('');
  const found = useStaffQuery('listStudioProducts', {
    params: { pageUid: store.pageUid },
    query: { q: search.trim(), limit: 8 },
  });
  const products = (found.data?.products ?? []).filter((product) => !chosen.has(product.uid));
  return (
    <div className="shows-picker">
      <label className="studio-field">
        <span className="studio-field__label">{t('lineup.search')}</span>
        <input
          type="search"
          className="studio-input"
          value={search}
          placeholder={t('lineup.searchPlaceholder')}
          onChange={(event) => setSearch(event.target.value)}
        />
      </label>
      {found.error && (
        <p role="alert" className="studio-notice studio-notice--error">
          {refusalText(found.error, t('lineup.searchFailed'))}
        </p>
      )}
      {found.data && products.length === 0 ? (
        <p className="studio-muted studio-small">{t('lineup.noProducts')}</p>
      ) : (
        <ul className="shows-picker__results">
          {products.map((product) => (
            <li key={product.uid} className="shows-picker__result">
              {product.image ? (
                <img className="shows-lineup__image" src={product.image} alt="" />
              ) : (
                <span className="shows-lineup__image" aria-hidden="true" />
              )}
              <span className="shows-lineup__name">
                {product.name}
                {product.sku && <span className="studio-muted studio-small"> · {product.sku}</span>}
              </span>
              <span className="shows-lineup__price">{priceText(product.prices, i18n.language)}</span>
              <button
                type="button"
                className="studio-button"
                disabled={disabled}
                onClick={() => onPick(product)}
              >
                {t('lineup.add')}
                <span className="visually-hidden"> {product.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
